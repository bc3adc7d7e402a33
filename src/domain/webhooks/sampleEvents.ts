import type { WebhookEventType } from '../../schemas/webhooks.js';
import type { WebhookEntity } from './payload.js';

/**
 * A well-formed `entity` and `data` for each event type (FACTS.md §10.10.4), with fresh ids: what
 * `POST /admin/v1/webhooks/{id}/test` sends so a handler can be tested against every type.
 */
export function sampleEvent(type: WebhookEventType, newId: () => string): { entity: WebhookEntity; data?: unknown } {
  const [family] = type.split('.');
  const page = { id: newId(), type: 'page' };
  const parent = { id: newId(), type: 'space' };
  const entityType = family === 'database' ? 'database' : family === 'data_source' ? 'data_source' : family;
  const entity = { id: newId(), type: entityType };
  switch (type) {
    case 'page.content_updated':
    case 'database.content_updated':
    case 'data_source.content_updated':
      return { entity, data: { parent, updated_blocks: [{ id: newId(), type: 'block' }] } };
    case 'page.properties_updated':
      return { entity, data: { parent, updated_properties: ['title'] } };
    case 'database.schema_updated':
    case 'data_source.schema_updated':
      return { entity, data: { parent, updated_properties: [{ id: 'XGe%40', name: 'Status', action: 'updated' }] } };
    case 'page.transcription_block.transcript_deleted':
      return { entity: { id: entity.id, type: 'page' }, data: { target: { id: newId(), type: 'block' }, transcript_id: null } };
    case 'comment.created':
    case 'comment.updated':
    case 'comment.deleted':
      return { entity, data: { page_id: page.id, parent: page } };
    case 'file_upload.created':
    case 'file_upload.completed':
    case 'file_upload.expired':
      return { entity };
    case 'file_upload.upload_failed':
      return {
        entity,
        data: {
          file_import_result: {
            type: 'error',
            imported_time: new Date(0).toISOString(),
            error: { type: 'download_error', code: 'download_error', message: 'The URL could not be fetched.', parameter: null, status_code: 404 },
          },
        },
      };
    case 'view.created':
      return { entity, data: { parent: { id: newId(), type: 'database' }, view_type: 'table' } };
    case 'view.updated':
      return { entity, data: { parent: { id: newId(), type: 'database' }, updated_fields: ['name'] } };
    case 'view.deleted':
      return { entity, data: { parent: { id: newId(), type: 'database' } } };
    default:
      return { entity, data: { parent } };
  }
}

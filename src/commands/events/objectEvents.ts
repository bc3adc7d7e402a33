import type { Db } from '../../storage/db.js';
import type { CommentRow, DatabaseViewRow, FileUploadRow, ObjectRow } from '../../storage/schema.js';
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { findObject } from '../../storage/repositories/objects.js';
import { findContainingPage } from '../../storage/repositories/blocks.js';
import type { RecordedEvent } from './recordEvent.js';

/**
 * The events of pages, databases, data sources and their content (FACTS.md §10.10.4), built from
 * the rows the commands already hold, so each command adds one `recordEvent` call.
 */

type Family = 'page' | 'database' | 'data_source';

/** `parent` (WebhookParentBlock): a page in a data source names its database and the source. */
export async function webhookParent(trx: Db, row: ObjectRow): Promise<Record<string, string>> {
  switch (row.parent_type) {
    case 'workspace':
      return { id: row.workspace_id, type: 'space' };
    case 'page_id':
      return { id: row.parent_id!, type: 'page' };
    case 'block_id':
      return { id: row.parent_id!, type: 'block' };
    case 'database_id':
      return { id: row.parent_id!, type: 'database' };
    case 'data_source_id': {
      const source = await findObject(trx, row.parent_id!);
      return { id: source?.parent_id ?? row.parent_id!, type: 'database', data_source_id: row.parent_id! };
    }
  }
}

function familyOf(row: ObjectRow): Family | null {
  return row.object === 'page' || row.object === 'database' || row.object === 'data_source' ? row.object : null;
}

/** `<family>.created|deleted|undeleted|moved` with `{parent}`; none for blocks (their page's content changed instead). */
export async function lifecycleEvent(trx: Db, row: ObjectRow, what: 'created' | 'deleted' | 'undeleted' | 'moved'): Promise<RecordedEvent[]> {
  const family = familyOf(row);
  if (!family) return contentEvent(trx, row.id);
  return [
    { type: `${family}.${what}` as WebhookEventType, entity: { id: row.id, type: family }, data: { parent: await webhookParent(trx, row) } },
    ...(await rowEvents(trx, row)),
  ];
}

/**
 * A page of a data source is a row of it: its changes are also the data source's content changing
 * (`data_source.content_updated`, and `database.content_updated` for subscriptions at 2022-06-28).
 */
async function rowEvents(trx: Db, row: ObjectRow): Promise<RecordedEvent[]> {
  if (row.object !== 'page' || row.parent_type !== 'data_source_id' || !row.parent_id) return [];
  const source = await findObject(trx, row.parent_id);
  if (!source) return [];
  const data = { parent: await webhookParent(trx, source), updated_blocks: [{ id: row.id, type: 'page' }] };
  return [
    { type: 'data_source.content_updated', entity: { id: source.id, type: 'data_source' }, data },
    { type: 'database.content_updated', entity: { id: source.parent_id ?? source.id, type: 'database' }, data },
  ];
}

/** `page.locked` / `page.unlocked` (not aggregated). */
export async function lockEvent(trx: Db, row: ObjectRow, locked: boolean): Promise<RecordedEvent[]> {
  if (row.object !== 'page') return [];
  return [{ type: locked ? 'page.locked' : 'page.unlocked', entity: { id: row.id, type: 'page' }, data: { parent: await webhookParent(trx, row) } }];
}

/** `page.properties_updated` with the property ids, URL-encoded as the service sends them. */
export async function propertiesEvent(trx: Db, row: ObjectRow, propertyIds: readonly string[]): Promise<RecordedEvent[]> {
  if (propertyIds.length === 0) return [];
  return [
    {
      type: 'page.properties_updated',
      entity: { id: row.id, type: 'page' },
      data: { parent: await webhookParent(trx, row), updated_properties: propertyIds.map((id) => encodeURIComponent(id)) },
    },
    ...(await rowEvents(trx, row)),
  ];
}

/** `page.content_updated` for the page the changed blocks sit in (aggregated later per page). */
export async function contentEvent(trx: Db, objectId: string, updatedBlocks: readonly string[] = [objectId]): Promise<RecordedEvent[]> {
  const page = await findContainingPage(trx, objectId);
  return page ? pageContentEvent(trx, page, updatedBlocks) : [];
}

/** contentEvent for a command that holds the page already (findContainingPage). */
export async function pageContentEvent(trx: Db, page: ObjectRow, updatedBlocks: readonly string[]): Promise<RecordedEvent[]> {
  const blocks = updatedBlocks.filter((id) => id !== page.id).map((id) => ({ id, type: 'block' }));
  return [{ type: 'page.content_updated', entity: { id: page.id, type: 'page' }, data: { parent: await webhookParent(trx, page), updated_blocks: blocks } }];
}

/** `data_source.schema_updated` (and `database.schema_updated` for subscriptions at 2022-06-28) with what changed. */
export async function schemaEvents(
  trx: Db,
  source: ObjectRow,
  changes: readonly { id: string; name: string | null; action: 'created' | 'updated' | 'deleted' }[],
): Promise<RecordedEvent[]> {
  if (changes.length === 0) return [];
  const parent = await webhookParent(trx, source);
  const data = { parent, updated_properties: changes.map((c) => ({ ...c, id: encodeURIComponent(c.id) })) };
  return [
    { type: 'data_source.schema_updated', entity: { id: source.id, type: 'data_source' }, data },
    { type: 'database.schema_updated', entity: { id: source.parent_id ?? source.id, type: 'database' }, data },
  ];
}

/** `comment.created|updated|deleted` with the page it is on and its parent (not aggregated). */
export async function commentEvent(
  trx: Db,
  comment: Pick<CommentRow, 'id' | 'parent_type' | 'parent_id'>,
  what: 'created' | 'updated' | 'deleted',
): Promise<RecordedEvent[]> {
  const pageId = (await findContainingPage(trx, comment.parent_id))?.id ?? comment.parent_id;
  return [
    {
      type: `comment.${what}`,
      entity: { id: comment.id, type: 'comment' },
      data: { page_id: pageId, parent: { id: comment.parent_id, type: comment.parent_type === 'page_id' ? 'page' : 'block' } },
    },
  ];
}

/** `view.created|updated|deleted` (FACTS.md §10.10.4): `parent` is the view's database. */
/** An upload's events are its connection's, whether its request or its import job caused them. */
export function uploadSource(upload: Pick<FileUploadRow, 'workspace_id' | 'connection_id' | 'created_by'>) {
  return { workspaceId: upload.workspace_id, connectionId: upload.connection_id, botId: upload.created_by };
}

/** `file_upload.created|completed|upload_failed`; only the failure carries `data` (FACTS.md §10.10.4). */
export function fileUploadEvent(id: string, what: 'created' | 'completed' | 'upload_failed', importResult?: unknown): RecordedEvent[] {
  return [
    { type: `file_upload.${what}`, entity: { id, type: 'file_upload' }, ...(importResult === undefined ? {} : { data: { file_import_result: importResult } }) },
  ];
}

export function viewEvent(
  view: Pick<DatabaseViewRow, 'id' | 'database_id' | 'type'>,
  what: 'created' | 'updated' | 'deleted',
  updatedFields: readonly ('name' | 'filter' | 'sorts' | 'configuration')[] = [],
): RecordedEvent[] {
  const parent = { id: view.database_id, type: 'database' };
  const data = what === 'created' ? { parent, view_type: view.type } : what === 'updated' ? { parent, updated_fields: [...updatedFields] } : { parent };
  return [{ type: `view.${what}`, entity: { id: view.id, type: 'view' }, data }];
}

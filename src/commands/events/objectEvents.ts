import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { findObject } from '../../storage/repositories/objects.js';
import { findNearestPage } from '../../storage/repositories/webhooks.js';
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
  return [{ type: `${family}.${what}` as WebhookEventType, entity: { id: row.id, type: family }, data: { parent: await webhookParent(trx, row) } }];
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
  ];
}

/** `page.content_updated` for the page the changed blocks sit in (aggregated later per page). */
export async function contentEvent(trx: Db, objectId: string, updatedBlocks: readonly string[] = [objectId]): Promise<RecordedEvent[]> {
  const pageId = await findNearestPage(trx, objectId);
  if (!pageId) return [];
  const page = (await findObject(trx, pageId))!;
  const blocks = updatedBlocks.filter((id) => id !== pageId).map((id) => ({ id, type: 'block' }));
  return [{ type: 'page.content_updated', entity: { id: pageId, type: 'page' }, data: { parent: await webhookParent(trx, page), updated_blocks: blocks } }];
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

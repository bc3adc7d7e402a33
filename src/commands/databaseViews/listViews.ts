import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ListViewsInput } from '../../schemas/databaseViews.js';
import type { ListView } from '../../domain/views.js';
import { loadVisibleObject } from '../../auth/access.js';
import { listDatabaseTabs, listViewsOfDataSource } from '../../storage/repositories/databaseViews.js';
import { isShared } from '../../storage/repositories/grants.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { normalizeId } from '../../ids/ids.js';
import { ValidationFailure } from '../../errors/validationFailure.js';

const SCOPE = 'views';

/** An id in the query string: not a UUID at all is a validation error naming it. */
function queryId(raw: string, field: string): string {
  const id = normalizeId(raw);
  if (!id) throw new ValidationFailure({ part: 'query', path: [field], rule: { name: 'format', format: 'uuid' }, actual: { json: raw.slice(0, 100) } });
  return id;
}

/**
 * GET /v1/views (FACTS.md §10.8 8.5): a database's tabs in tab order, or every view showing a data
 * source (tabs of other databases and dashboard widgets too) that sits in a database the caller
 * sees; both when both are given. Cursors are offsets into that order.
 */
export async function listViews(ctx: AppContext, caller: Caller, query: ListViewsInput): Promise<ListView<string>> {
  if (query.database_id === undefined && query.data_source_id === undefined) {
    throw new ValidationFailure({
      part: 'query',
      path: [],
      rule: { name: 'custom', expectation: 'should have at least one of database_id, data_source_id' },
      actual: { words: 'neither' },
    });
  }
  const offset = query.start_cursor ? Number(decodeCursor(SCOPE, query.start_cursor, 'start_cursor', 'query')[0]) : 0;
  const pageSize = query.page_size ?? 100;
  const db = ctx.store.db;
  let ids: string[];
  if (query.database_id !== undefined) {
    const database = await loadVisibleObject(db, caller, queryId(query.database_id, 'database_id'), ['database'], 'database', query.database_id);
    let tabs = await listDatabaseTabs(db, database.id);
    if (query.data_source_id !== undefined) {
      const sourceId = queryId(query.data_source_id, 'data_source_id');
      tabs = tabs.filter((t) => t.data_source_id === sourceId);
    }
    ids = tabs.map((t) => t.id);
  } else {
    const source = await loadVisibleObject(db, caller, queryId(query.data_source_id!, 'data_source_id'), ['data_source'], 'data_source', query.data_source_id);
    // A data source has few views; each is listed only if its database is shared with the caller.
    const views = await listViewsOfDataSource(db, source.id, null, 10_000);
    const shared = new Map<string, boolean>();
    ids = [];
    for (const view of views) {
      if (!shared.has(view.database_id)) shared.set(view.database_id, await isShared(db, caller.connectionId, view.database_id));
      if (shared.get(view.database_id)) ids.push(view.id);
    }
  }
  const page = ids.slice(offset, offset + pageSize);
  const nextCursor = offset + pageSize < ids.length ? encodeCursor(SCOPE, [offset + pageSize]) : null;
  return { items: page, nextCursor };
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ViewQueryRow } from '../../storage/schema.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import {
  deleteExpiredViewQueries,
  deleteViewQuery as deleteQueryRow,
  findViewQuery,
  insertViewQuery,
  sharedAmong,
} from '../../storage/repositories/databaseViews.js';
import { runListing } from '../../domain/query/runListing.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { newId } from '../../ids/ids.js';
import { notFound, validationError } from '../../errors/registry.js';
import { loadVisibleView } from './viewAccess.js';

/** FACTS.md §10.8 8.6: a view query's results are kept 15 minutes. */
export const VIEW_QUERY_TTL_MS = 15 * 60 * 1000;

/** One page of a cached view query. */
export interface ViewQueryPage {
  query: ViewQueryRow;
  pageIds: string[];
  nextCursor: string | null;
}

const cursorScope = (queryId: string) => `view_query:${queryId}`;

function pageOf(query: ViewQueryRow, offset: number, pageSize: number): ViewQueryPage {
  const ids = JSON.parse(query.page_ids) as string[];
  const end = offset + pageSize;
  return { query, pageIds: ids.slice(offset, end), nextCursor: end < ids.length ? encodeCursor(cursorScope(query.id), [end]) : null };
}

/**
 * POST /v1/views/{view_id}/queries: runs the view's filter and sorts through the data-source
 * query's planner (domain/query/runListing.ts), so a view query lists what `POST
 * /v1/data_sources/{id}/query` with the same filter and sorts lists, and keeps the whole result
 * (up to the cap) for paging.
 */
export async function createViewQuery(ctx: AppContext, caller: Caller, viewId: string, rawId: string, pageSize: number): Promise<ViewQueryPage> {
  const now = ctx.clock.now();
  return ctx.store.transaction(async (trx) => {
    const view = await loadVisibleView(trx, caller, viewId, rawId);
    if (view.data_source_id === null) throw validationError('A dashboard view shows no data source of its own: query its widget views instead.');
    const found = await findObjectForConnection(trx, view.data_source_id, caller.connectionId);
    if (!found || found.row.object !== 'data_source') throw notFound('view', rawId);
    const cap = ctx.config.viewQueryResultLimit;
    const listing = await runListing(trx, { dialect: ctx.store.dialect, now, caller }, found.row, {
      filter: view.filter === null ? null : JSON.parse(view.filter),
      sorts: view.sorts === null ? [] : (JSON.parse(view.sorts) as unknown[]),
      inTrash: false,
      pageSize: cap,
      resultType: 'page',
      idsOnly: true,
    });
    let ids = listing.ids;
    // A data source shared with the caller shares every page in it; a linked view's source may not be.
    if (!found.shared) {
      const visible = await sharedAmong(trx, caller.connectionId, ids);
      ids = ids.filter((id) => visible.has(id));
    }
    await deleteExpiredViewQueries(trx, now.toISOString());
    const query: ViewQueryRow = {
      id: newId(),
      view_id: view.id,
      workspace_id: caller.workspaceId,
      connection_id: caller.connectionId,
      page_ids: JSON.stringify(ids),
      total_count: ids.length,
      incomplete: listing.incomplete || listing.nextCursor !== null ? 1 : 0,
      created_time: now.toISOString(),
      expires_at: new Date(now.getTime() + VIEW_QUERY_TTL_MS).toISOString(),
    };
    await insertViewQuery(trx, query);
    return pageOf(query, 0, pageSize);
  });
}

/** A query of this view, run by this connection, not expired; anything else is not found. */
async function loadLiveQuery(
  ctx: AppContext,
  db: Db,
  caller: Caller,
  viewId: string,
  rawViewId: string,
  queryId: string,
  rawQueryId: string,
): Promise<ViewQueryRow> {
  const view = await loadVisibleView(db, caller, viewId, rawViewId);
  const query = await findViewQuery(db, queryId);
  if (!query || query.view_id !== view.id || query.connection_id !== caller.connectionId || query.expires_at <= ctx.clock.now().toISOString()) {
    throw notFound('view_query', rawQueryId);
  }
  return query;
}

/** GET /v1/views/{view_id}/queries/{query_id}: a page of the kept results; a cursor of another query is refused. */
export async function viewQueryResults(
  ctx: AppContext,
  caller: Caller,
  ids: { viewId: string; rawViewId: string; queryId: string; rawQueryId: string },
  startCursor: string | undefined,
  pageSize: number,
): Promise<ViewQueryPage> {
  const query = await loadLiveQuery(ctx, ctx.store.db, caller, ids.viewId, ids.rawViewId, ids.queryId, ids.rawQueryId);
  const offset = startCursor ? Number(decodeCursor(cursorScope(query.id), startCursor, 'start_cursor', 'query')[0]) : 0;
  return pageOf(query, offset, pageSize);
}

/** DELETE /v1/views/{view_id}/queries/{query_id}: idempotent, so a query already gone (or expired) is deleted too. */
export async function deleteViewQuery(ctx: AppContext, caller: Caller, viewId: string, rawViewId: string, queryId: string): Promise<string> {
  return ctx.store.transaction(async (trx) => {
    const view = await loadVisibleView(trx, caller, viewId, rawViewId);
    const query = await findViewQuery(trx, queryId);
    if (query && query.view_id === view.id && query.connection_id === caller.connectionId) await deleteQueryRow(trx, query.id);
    return queryId;
  });
}

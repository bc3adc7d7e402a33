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
import { countListing, runListing } from '../../domain/query/runListing.js';
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

const nextCursorOf = (queryId: string, end: number) => encodeCursor(cursorScope(queryId), [end]);

function pageOf(query: ViewQueryRow, offset: number, pageSize: number): ViewQueryPage {
  const ids = JSON.parse(query.page_ids) as string[];
  const end = offset + pageSize;
  return { query, pageIds: ids.slice(offset, end), nextCursor: end < ids.length ? nextCursorOf(query.id, end) : null };
}

/**
 * Ids read per statement after the first page: big enough that the statements' own cost
 * dominates, small enough that a request waiting behind one waits little (bench/viewQuery).
 */
const KEEP_CHUNK = 1000;

/** Queries of this process whose kept result is still being read: a read of their results waits for it. */
const pendingQueries = new Map<string, Promise<void>>();

/** Resolves once every view query of this process has kept its result (or failed): the store may then close. */
export async function settleViewQueries(): Promise<void> {
  await Promise.allSettled([...pendingQueries.values()]);
}

/** A view's quick filters with criteria, each as the leaf filter it stands for; `{}` filters nothing. */
function quickFilterLeaves(stored: string | null): Record<string, unknown>[] {
  if (stored === null) return [];
  const quick = JSON.parse(stored) as Record<string, Record<string, unknown>>;
  return Object.entries(quick)
    .filter(([, condition]) => Object.keys(condition).length > 0)
    .map(([property, condition]) => ({ property, ...condition }));
}

/**
 * POST /v1/views/{view_id}/queries: runs the view's filter, ANDed with its quick filters, and its
 * sorts through the data-source query's planner (domain/query/runListing.ts), so a view query
 * lists what `POST /v1/data_sources/{id}/query` with the same filter and sorts lists, and keeps
 * the whole result (up to the cap) for paging.
 *
 * The first page is answered before the whole result is read (docs/benchmarks.md
 * "viewQuery"): its page through the plan a data-source query's first page uses, `total_count` from
 * a count that stops at the cap. The rest of the ids are read after the answer, in the same
 * snapshot (Store.snapshot), so the kept result is exactly what the answer counted; a read of its
 * later pages waits for it (pendingQueries).
 */
export async function createViewQuery(ctx: AppContext, caller: Caller, viewId: string, rawId: string, pageSize: number): Promise<ViewQueryPage> {
  const now = ctx.clock.now();
  const queryId = newId();
  let answered = false;
  let answer!: (page: ViewQueryPage) => void;
  const firstPage = new Promise<ViewQueryPage>((resolve) => {
    answer = (page) => {
      answered = true;
      resolve(page);
    };
  });
  const kept = ctx.store
    .snapshot(async (trx) => {
      const view = await loadVisibleView(trx, caller, viewId, rawId);
      if (view.data_source_id === null) throw validationError('A dashboard view shows no data source of its own: query its widget views instead.');
      const found = await findObjectForConnection(trx, view.data_source_id, caller.connectionId);
      if (!found || found.row.object !== 'data_source') throw notFound('view', rawId);
      const cap = ctx.config.viewQueryResultLimit;
      const env = { dialect: ctx.store.dialect, now, caller };
      const request = {
        filter: view.filter === null ? null : JSON.parse(view.filter),
        alsoFilters: quickFilterLeaves(view.quick_filters),
        sorts: view.sorts === null ? [] : (JSON.parse(view.sorts) as unknown[]),
        inTrash: false,
        resultType: 'page' as const,
        idsOnly: true,
      };
      const row = (ids: string[], total: number, incomplete: boolean): ViewQueryRow => ({
        id: queryId,
        view_id: view.id,
        workspace_id: caller.workspaceId,
        connection_id: caller.connectionId,
        page_ids: JSON.stringify(ids),
        total_count: total,
        incomplete: incomplete ? 1 : 0,
        created_time: now.toISOString(),
        expires_at: new Date(now.getTime() + VIEW_QUERY_TTL_MS).toISOString(),
      });
      let ids: string[] = [];
      // undefined: from the start; null: read to the end.
      let cursor: string | null | undefined;
      let cut = false;
      // A data source shared with the caller shares every page in it, so the count is the result's.
      if (found.shared) {
        const matches = await countListing(trx, env, found.row, request, cap + 1);
        const total = Math.min(matches, cap);
        if (total > 0) ({ ids, nextCursor: cursor } = await runListing(trx, env, found.row, { ...request, pageSize: Math.min(pageSize, total) }));
        cut = matches > cap;
        answer({ query: row(ids, total, cut), pageIds: ids, nextCursor: total > pageSize ? nextCursorOf(queryId, pageSize) : null });
        if (total === 0) cursor = null;
      }
      // The rest a chunk at a time from the first page's cursor, letting the answer out between
      // chunks: SQLite's statements hold the thread while they run.
      while (cursor !== null && ids.length < cap) {
        if (cursor !== undefined) await new Promise((resolve) => setImmediate(resolve));
        const part = await runListing(trx, env, found.row, { ...request, pageSize: Math.min(KEEP_CHUNK, cap - ids.length), startCursor: cursor });
        ids.push(...part.ids);
        cursor = part.nextCursor;
        if (!found.shared) cut = part.incomplete || (cursor !== null && ids.length >= cap);
      }
      // A linked view's source may not be shared: only the pages shared with the caller are kept.
      if (!found.shared) {
        const visible = await sharedAmong(trx, caller.connectionId, ids);
        ids = ids.filter((id) => visible.has(id));
      }
      return row(ids, ids.length, cut);
    })
    .then(async (query) => {
      await ctx.store.transaction(async (trx) => {
        await deleteExpiredViewQueries(trx, now.toISOString());
        await insertViewQuery(trx, query);
      });
      answer(pageOf(query, 0, pageSize));
    });
  const settled = kept.finally(() => pendingQueries.delete(queryId));
  pendingQueries.set(queryId, settled);
  // Failing before the answer, the request fails; after it, the query is not kept and its results are not found.
  settled.catch((error: unknown) => {
    if (answered) ctx.log.error({ err: error, query: queryId }, 'view query answered but not kept');
  });
  return Promise.race([firstPage, kept.then(() => firstPage)]);
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
  // A query still being kept is waited for; one that failed to be kept is not found, below.
  await pendingQueries.get(queryId)?.catch(() => undefined);
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
  // A query still being kept is deleted once kept, or its row would appear after the delete.
  await pendingQueries.get(queryId)?.catch(() => undefined);
  return ctx.store.transaction(async (trx) => {
    const view = await loadVisibleView(trx, caller, viewId, rawViewId);
    const query = await findViewQuery(trx, queryId);
    if (query && query.view_id === view.id && query.connection_id === caller.connectionId) await deleteQueryRow(trx, query.id);
    return queryId;
  });
}

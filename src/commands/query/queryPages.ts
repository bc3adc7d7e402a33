import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { PageView, QueryView } from '../../domain/views.js';
import { runListing } from '../../domain/query/runListing.js';
import type { QueryRequest } from '../../schemas/query.js';
import { loadObjectViews } from '../loadObjectViews.js';

/**
 * A query's body as a listing of the data source's pages (domain/query/runListing.ts plans and
 * runs it), the pages then loaded and presented as search loads them.
 */
export async function queryPages(ctx: AppContext, db: Db, caller: Caller, source: ObjectRow, body: QueryRequest): Promise<QueryView> {
  const now = ctx.clock.now();
  const listing = await runListing(db, { dialect: ctx.store.dialect, now, caller }, source, {
    filter: body.filter ?? null,
    sorts: body.sorts ?? [],
    inTrash: body.in_trash === true,
    pageSize: body.page_size ?? 100,
    startCursor: typeof body.start_cursor === 'string' ? body.start_cursor : undefined,
    resultType: body.result_type ?? 'page',
  });
  // A listing that returned early (no pages asked for, or past the cap) reads nothing more.
  const views = listing.pages.length === 0 ? [] : ((await loadObjectViews(db, listing.pages, now, [source])) as PageView[]);
  return { items: views, nextCursor: listing.nextCursor, incomplete: listing.incomplete, readsClock: listing.readsClock };
}

import { createHash } from 'node:crypto';
import type { AppContext } from '../context.js';
import type { Caller } from '../auth/capabilities.js';
import { invalidField, missingField, type ValidationFailure } from '../errors/validationFailure.js';
import { decodeCursor, encodeCursor } from '../ids/cursor.js';
import type { DataSourceView, ListView, PageView } from '../domain/views.js';
import { loadObjectViews } from './loadObjectViews.js';
import type { SearchRequest } from '../schemas/search.js';
import { findSearchHits, isSearchSeq, isSearchSnapshot } from '../storage/repositories/search.js';

const CURSOR_SCOPE = 'search';

function badCursor(cursor: string, why = 'a cursor returned by this endpoint'): ValidationFailure {
  return invalidField(['start_cursor'], `should be ${why}`, cursor.slice(0, 100));
}

/**
 * A cursor continues one listing: the same query, filter and sort. Its key says which, so a cursor
 * sent with another listing's arguments is refused instead of silently paging something else.
 */
function listingKey(parts: { query: string | null; object: string | null; inTrash: boolean; direction: string }): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/**
 * POST /v1/search: pages and data sources shared with the connection whose titles contain the
 * query (spec "POST /v1/search"; FACTS.md §4), newest edit first unless sorted otherwise.
 *
 * Cursors are [snapshot, seq of the last hit, listing key]: every page of a listing reads the
 * index as it was when its first page was answered, in an order edits cannot change, so an object
 * that exists throughout appears exactly once however the workspace changes meanwhile (the design
 * is explained in src/storage/migrations/002_search_index.ts).
 */
export async function searchTitles(ctx: AppContext, caller: Caller, body: SearchRequest): Promise<ListView<PageView | DataSourceView>> {
  const filter = body.filter ?? {};
  // The object filter is a pair (FACTS.md §4); in_trash may come with it or alone.
  if (filter.property !== undefined && filter.value === undefined) {
    throw missingField(['filter', 'value']);
  }
  if (filter.value !== undefined && filter.property === undefined) {
    throw missingField(['filter', 'property']);
  }
  const query = body.query ? body.query : null;
  const object = filter.value ?? null;
  const inTrash = filter.in_trash === true;
  const direction = body.sort && 'direction' in body.sort ? body.sort.direction : 'descending';
  const pageSize = body.page_size ?? 100;
  const listing = listingKey({ query, object, inTrash, direction });
  const db = ctx.store.db;

  // A listing's first page reads the index as it is now; its cursors carry that snapshot on.
  let snapshot: string | null = null;
  let after: string | null = null;
  if (typeof body.start_cursor === 'string') {
    const key = decodeCursor(CURSOR_SCOPE, body.start_cursor);
    const [snap, seq, cursorListing] = key;
    if (key.length !== 3 || typeof snap !== 'string' || typeof seq !== 'string' || !isSearchSnapshot(db, snap) || !isSearchSeq(seq)) {
      throw badCursor(body.start_cursor);
    }
    if (cursorListing !== listing) throw badCursor(body.start_cursor, 'a cursor returned for the same query, filter and sort');
    snapshot = snap;
    after = seq;
  }

  const found = await findSearchHits(
    db,
    {
      workspaceId: caller.workspaceId,
      connectionId: caller.connectionId,
      query,
      object,
      inTrash,
      direction,
      snapshot,
      after,
      limit: pageSize + 1,
    },
    { visibleFirstBelow: ctx.config.searchVisibleFirstBelow },
  );
  const hits = found.hits;
  const page = hits.slice(0, pageSize);
  const rows = page.map((h) => h.row).filter((row): row is NonNullable<typeof row> => row !== null);
  const next = hits.length > pageSize ? encodeCursor(CURSOR_SCOPE, [found.snapshot!, page[page.length - 1].seq, listing]) : null;
  return { items: await loadObjectViews(db, rows, ctx.clock.now()), nextCursor: next };
}

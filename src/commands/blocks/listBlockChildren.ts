import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { invalidField } from '../../errors/validationFailure.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { listChildRows, type ChildCursor } from '../../storage/repositories/blocks.js';
import type { BlockView, ListView } from '../../domain/views.js';
import { childrenSourceId, loadBlock, loadBlockViews } from './loadBlock.js';

/**
 * GET /v1/blocks/{id}/children: the first level only, in position order, keyset-paginated
 * (FACTS.md §3). A synced copy lists its original's children, which are its content.
 */
export async function listBlockChildren(
  ctx: AppContext,
  caller: Caller,
  id: string,
  rawId: string,
  startCursor: string | undefined,
  pageSize: number,
): Promise<ListView<BlockView>> {
  const db = ctx.store.db;
  const parent = await loadBlock(db, caller, id, rawId);
  const sourceId = childrenSourceId(parent);
  // The scope ties a cursor to this parent's listing, so another listing's cursor is refused.
  const scope = `block-children:${parent.id}`;
  let after: ChildCursor | null = null;
  if (startCursor) {
    const [position, childId] = decodeCursor(scope, startCursor, 'start_cursor', 'query');
    if (typeof position !== 'number' || typeof childId !== 'string') {
      throw invalidField(['start_cursor'], 'should be a cursor returned by this endpoint', startCursor, 'query');
    }
    after = { position, id: childId };
  }
  const rows = await listChildRows(db, sourceId, after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const next = rows.length > pageSize ? encodeCursor(scope, [last.position, last.id]) : null;
  return { items: await loadBlockViews(db, page), nextCursor: next };
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CommentView, ListView } from '../../domain/views.js';
import { loadVisibleObject } from '../../auth/access.js';
import { ValidationFailure, invalidField } from '../../errors/validationFailure.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { normalizeId } from '../../ids/ids.js';
import { listCommentsOf, type CommentCursor } from '../../storage/repositories/comments.js';

/**
 * GET /v1/comments?block_id= (FACTS.md §10.2): the comments on a page or block, every discussion
 * in one flat list, oldest first, keyset-paginated. The comments of an object in the trash are in
 * the trash with it, so it lists none (docs/decisions.md "Comments").
 */
export async function listComments(
  ctx: AppContext,
  caller: Caller,
  rawBlockId: string,
  startCursor: string | undefined,
  pageSize: number,
): Promise<ListView<CommentView>> {
  const db = ctx.store.db;
  const blockId = normalizeId(rawBlockId);
  if (!blockId)
    throw new ValidationFailure({ part: 'query', path: ['block_id'], rule: { name: 'format', format: 'uuid' }, actual: { json: rawBlockId.slice(0, 100) } });
  const target = await loadVisibleObject(db, caller, blockId, ['page', 'block'], 'block', rawBlockId);
  // The scope ties a cursor to this object's listing, so another listing's cursor is refused.
  const scope = `comments:${target.id}`;
  let after: CommentCursor | null = null;
  if (startCursor) {
    const [position, id] = decodeCursor(scope, startCursor, 'start_cursor', 'query');
    if (typeof position !== 'number' || typeof id !== 'string')
      throw invalidField(['start_cursor'], 'should be a cursor returned by this endpoint', startCursor, 'query');
    after = { position, id };
  }
  if (target.in_trash === 1) return { items: [], nextCursor: null };
  const rows = await listCommentsOf(db, target.id, after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({ kind: 'comment', row })),
    nextCursor: rows.length > pageSize ? encodeCursor(scope, [last.position, last.id]) : null,
  };
}

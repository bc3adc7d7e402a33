import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { commentEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CommentView, Unreadable } from '../../domain/views.js';
import { removeComment } from '../../storage/repositories/comments.js';
import { loadOwnComment, writtenComment } from './loadComment.js';

/**
 * DELETE /v1/comments/{id} (FACTS.md §10.2): deletes one of the connection's own comments for good
 * and answers it as it was. A discussion is its comments, so the last one's going ends it.
 */
export async function deleteComment(ctx: AppContext, caller: Caller, id: string, rawId: string): Promise<CommentView | Unreadable> {
  return ctx.store.transaction(async (trx) => {
    const row = await loadOwnComment(trx, caller, id, rawId);
    await removeComment(trx, row.id);
    await recordEvent(ctx, trx, caller, ctx.clock.now().toISOString(), ...(await commentEvent(trx, row, 'deleted')));
    return writtenComment(caller, row);
  });
}

import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { commentEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdateCommentInput } from '../../schemas/comments.js';
import type { CommentView, Unreadable } from '../../domain/views.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { findComment, updateCommentText } from '../../storage/repositories/comments.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { assertOneCommentBody, commentRichText } from './commentBody.js';
import { loadOwnComment, writtenComment } from './loadComment.js';

/** PATCH /v1/comments/{id} (FACTS.md §10.2): replaces the text of one of the connection's own comments. */
export async function updateComment(ctx: AppContext, caller: Caller, id: string, rawId: string, body: UpdateCommentInput): Promise<CommentView | Unreadable> {
  assertOneCommentBody(body);
  return ctx.store.transaction(async (trx) => {
    const now = ctx.clock.now();
    await attachFileUploads(trx, caller, now, body);
    const richText = await commentRichText(body, createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId));
    const row = await loadOwnComment(trx, caller, id, rawId);
    await updateCommentText(trx, row.id, JSON.stringify(richText), now.toISOString());
    await recordEvent(ctx, trx, caller, now.toISOString(), ...(await commentEvent(trx, row, 'updated')));
    return writtenComment(caller, (await findComment(trx, row.id))!);
  });
}

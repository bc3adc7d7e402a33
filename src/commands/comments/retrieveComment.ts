import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CommentView } from '../../domain/views.js';
import { loadVisibleComment } from './loadComment.js';

/** GET /v1/comments/{id}: any comment the caller may see, its own or not. */
export async function retrieveComment(ctx: AppContext, caller: Caller, id: string, rawId: string): Promise<CommentView> {
  return { kind: 'comment', row: await loadVisibleComment(ctx.store.db, caller, id, rawId) };
}

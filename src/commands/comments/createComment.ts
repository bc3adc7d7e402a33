import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { commentEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { CommentParentType } from '../../storage/schema.js';
import type { CreateCommentInput } from '../../schemas/comments.js';
import type { CommentView, Unreadable } from '../../domain/views.js';
import { assertEditable, loadVisibleObject } from '../../auth/access.js';
import { notFound } from '../../errors/registry.js';
import { ValidationFailure } from '../../errors/validationFailure.js';
import { newId, normalizeId } from '../../ids/ids.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { findDiscussionStart, findComment, insertComment, nextCommentPosition } from '../../storage/repositories/comments.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { assertOneCommentBody, commentRichText } from './commentBody.js';
import { commentAttachments } from './commentAttachments.js';
import { commentDisplayName } from './commentDisplayName.js';
import { commentsVisibleOn, writtenComment } from './loadComment.js';

/** Where a new comment goes: the object its discussion is on, and the discussion. */
interface Anchor {
  parentType: CommentParentType;
  parentId: string;
  discussionId: string;
}

/**
 * POST /v1/comments (FACTS.md §10.2): a comment on a page or block opens a new discussion there;
 * one with `discussion_id` is a reply, on the object the discussion is on.
 */
export async function createComment(ctx: AppContext, caller: Caller, body: CreateCommentInput): Promise<CommentView | Unreadable> {
  assertOneTarget(body);
  assertOneCommentBody(body);
  return ctx.store.transaction(async (trx) => {
    const now = ctx.clock.now();
    const at = now.toISOString();
    // No upload is named in rich text, but a hosted reference written there is refused like anywhere else.
    await attachFileUploads(trx, caller, now, body);
    const richText = await commentRichText(body, createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId));
    const attachments = await commentAttachments(trx, caller, now, body.attachments ?? []);
    const anchor = await anchorOf(trx, caller, body);
    const id = newId();
    await insertComment(trx, {
      id,
      workspace_id: caller.workspaceId,
      discussion_id: anchor.discussionId,
      parent_type: anchor.parentType,
      parent_id: anchor.parentId,
      position: await nextCommentPosition(trx, anchor.parentId),
      rich_text: JSON.stringify(richText),
      attachments: JSON.stringify(attachments),
      ...(await commentDisplayName(trx, caller, body.display_name)),
      created_by: caller.botId,
      created_time: at,
      last_edited_time: at,
    });
    const written = (await findComment(trx, id))!;
    await recordEvent(ctx, trx, caller, at, ...(await commentEvent(trx, written, 'created')));
    return writtenComment(caller, written);
  });
}

/** Exactly one of `parent` and `discussion_id` (FACTS.md §10.2); the message names both. */
function assertOneTarget(body: CreateCommentInput): void {
  if (body.parent !== undefined && body.discussion_id !== undefined) {
    throw new ValidationFailure({
      part: 'body',
      path: ['discussion_id'],
      rule: { name: 'not_allowed', reason: 'a comment goes on body.parent or into body.discussion_id, not both' },
      actual: { value: body.discussion_id },
    });
  }
  if (body.parent === undefined && body.discussion_id === undefined) {
    throw new ValidationFailure({
      part: 'body',
      path: ['parent'],
      rule: { name: 'custom', expectation: 'should be defined when body.discussion_id is not' },
      actual: { value: undefined },
    });
  }
}

/**
 * The object a new discussion opens on, which must be visible to the caller and not in the trash
 * (commenting is editing: a trashed page refuses it as it refuses other edits); or the discussion
 * replied to, which is not found unless its comments are visible.
 */
async function anchorOf(trx: Db, caller: Caller, body: CreateCommentInput): Promise<Anchor> {
  if (body.discussion_id !== undefined) {
    const start = await findDiscussionStart(trx, normalizeId(body.discussion_id)!);
    if (!start || start.workspace_id !== caller.workspaceId || !(await commentsVisibleOn(trx, caller, start.parent_id))) {
      throw notFound('discussion', body.discussion_id);
    }
    return { parentType: start.parent_type, parentId: start.parent_id, discussionId: start.discussion_id };
  }
  const parent = body.parent!;
  // A page is a block too (FACTS.md §10.2: page ids are block ids); the comment's parent says which it is.
  const row =
    'page_id' in parent
      ? await loadVisibleObject(trx, caller, normalizeId(parent.page_id)!, ['page'], 'page', parent.page_id)
      : await loadVisibleObject(trx, caller, normalizeId(parent.block_id)!, ['block', 'page'], 'block', parent.block_id);
  assertEditable(row);
  return { parentType: row.object === 'page' ? 'page_id' : 'block_id', parentId: row.id, discussionId: newId() };
}

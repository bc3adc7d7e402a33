import type { Static } from 'typebox';
import type { CommentView, ListView, Unreadable } from '../domain/views.js';
import type { CommentAttachmentJson, CommentJson, CommentListResponse, WrittenCommentResponse } from '../schemas/comments.js';
import type { RichTextItem } from '../domain/richText.js';
import { partialUser, presentTimestamp } from './time.js';
import { presentList } from './list.js';

/** The comment object (SDK `CommentObjectResponse`, FACTS.md §10.2). */
export function presentComment(view: CommentView): CommentJson {
  const { row } = view;
  return {
    object: 'comment',
    id: row.id,
    parent: row.parent_type === 'page_id' ? { type: 'page_id', page_id: row.parent_id } : { type: 'block_id', block_id: row.parent_id },
    discussion_id: row.discussion_id,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    rich_text: JSON.parse(row.rich_text) as RichTextItem[],
    display_name: { type: row.display_type, resolved_name: row.display_name },
    attachments: JSON.parse(row.attachments) as CommentAttachmentJson[],
  };
}

/** A written comment: in full, or `{object, id}` to a connection that may not read comments. */
export function presentWrittenComment(view: CommentView | Unreadable): Static<typeof WrittenCommentResponse> {
  return view.kind === 'unreadable' ? { object: 'comment', id: view.id } : presentComment(view);
}

export function presentCommentList(list: ListView<CommentView>): Static<typeof CommentListResponse> {
  return presentList('comment', list.items.map(presentComment), list.nextCursor);
}

import { Type, type Static } from 'typebox';
import { IdString, PageSizeQuery, StrictObject } from './common.js';
import { RichTextRequestArray } from './richText.js';
import { Closed, Id, ListOf, Nullable, PartialUser, RichTextResponse, Timestamp, Unreadable } from './objectParts.js';

/** FACTS.md §10.2: at most three files on one comment. */
export const MAX_COMMENT_ATTACHMENTS = 3;

export const COMMENT_DISPLAY_TYPES = ['integration', 'user', 'custom'] as const;
export const ATTACHMENT_CATEGORIES = ['audio', 'image', 'pdf', 'productivity', 'video'] as const;

const CommentParentRequest = Type.Union([
  StrictObject({ page_id: IdString, type: Type.Optional(Type.Literal('page_id')) }),
  StrictObject({ block_id: IdString, type: Type.Optional(Type.Literal('block_id')) }),
]);

const DisplayNameRequest = Type.Union([
  StrictObject({ type: Type.Literal('integration') }),
  StrictObject({ type: Type.Literal('user') }),
  StrictObject({ type: Type.Literal('custom'), custom: StrictObject({ name: Type.String({ minLength: 1, maxLength: 200 }) }) }),
]);

/**
 * The two bodies a comment may have (SDK `CreateCommentBodyParameters`, `UpdateCommentBodyParameters`).
 * Both members are optional here: that exactly one is given is checked by commentRichText
 * (src/commands/comments/commentBody.ts), whose message names both fields, as a schema union's would not.
 */
const commentBodyMembers = {
  rich_text: Type.Optional(RichTextRequestArray),
  markdown: Type.Optional(Type.String({ maxLength: 20000 })),
};

/** SDK `CreateCommentParameters`: exactly one target (`parent` or `discussion_id`), checked by the command. */
export const CreateCommentBody = StrictObject({
  parent: Type.Optional(CommentParentRequest),
  discussion_id: Type.Optional(IdString),
  ...commentBodyMembers,
  attachments: Type.Optional(
    Type.Array(StrictObject({ file_upload_id: IdString, type: Type.Optional(Type.Literal('file_upload')) }), { maxItems: MAX_COMMENT_ATTACHMENTS }),
  ),
  display_name: Type.Optional(DisplayNameRequest),
});
export type CreateCommentInput = Static<typeof CreateCommentBody>;

export const UpdateCommentBody = StrictObject(commentBodyMembers);
export type UpdateCommentInput = Static<typeof UpdateCommentBody>;

/** What both bodies share: the text of the comment, in one of two forms. */
export type CommentBodyInput = Pick<CreateCommentInput, 'rich_text' | 'markdown'>;

export const CommentParams = StrictObject({ comment_id: Type.String({ maxLength: 200 }) });

export const ListCommentsQuery = StrictObject({
  block_id: Type.String({ maxLength: 200 }),
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});

// ---- Responses (newest version; see src/schemas/objectParts.ts) ----

/** SDK `CommentObjectResponse` (FACTS.md §10.2). A file's `expiry_time` is null until the v1 plane signs its link. */
export const CommentObject = Type.Object(
  {
    object: Type.Literal('comment'),
    id: Id,
    parent: Type.Union([
      Type.Object({ type: Type.Literal('page_id'), page_id: Id }, Closed),
      Type.Object({ type: Type.Literal('block_id'), block_id: Id }, Closed),
    ]),
    discussion_id: Id,
    created_time: Timestamp,
    last_edited_time: Timestamp,
    created_by: PartialUser,
    rich_text: RichTextResponse,
    display_name: Type.Object({ type: Type.Enum([...COMMENT_DISPLAY_TYPES]), resolved_name: Nullable(Type.String()) }, Closed),
    attachments: Type.Array(
      Type.Object(
        {
          category: Type.Enum([...ATTACHMENT_CATEGORIES]),
          file: Type.Object({ url: Type.String(), expiry_time: Nullable(Type.String()) }, Closed),
        },
        Closed,
      ),
    ),
  },
  Closed,
);
export type CommentJson = Static<typeof CommentObject>;
export type CommentAttachmentJson = CommentJson['attachments'][number];

/** A write answered to a connection that may insert comments but not read them (FACTS.md §10.2). */
export const WrittenCommentResponse = Type.Union([CommentObject, Unreadable('comment')]);
export const CommentListResponse = ListOf('comment', CommentObject);

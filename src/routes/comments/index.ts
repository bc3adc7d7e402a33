import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../ids/ids.js';
import {
  CommentListResponse,
  CommentObject,
  CommentParams,
  CreateCommentBody,
  ListCommentsQuery,
  UpdateCommentBody,
  WrittenCommentResponse,
} from '../../schemas/comments.js';
import { createComment } from '../../commands/comments/createComment.js';
import { listComments } from '../../commands/comments/listComments.js';
import { retrieveComment } from '../../commands/comments/retrieveComment.js';
import { updateComment } from '../../commands/comments/updateComment.js';
import { deleteComment } from '../../commands/comments/deleteComment.js';
import { presentComment, presentCommentList, presentWrittenComment } from '../../presenters/comment.js';

/**
 * Comments (FACTS.md §10.2). Reading needs read_comments; writing, updating and deleting need
 * insert_comments (the service's docs say so for delete; for update they do not say, and Folio
 * asks the same: docs/decisions.md "Comments").
 */
export function registerCommentRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/comments',
    { config: { capability: 'insert_comments', response: WrittenCommentResponse }, schema: { body: CreateCommentBody } },
    async (request) => presentWrittenComment(await createComment(ctx, request.caller!, request.body)),
  );

  app.get(
    '/v1/comments',
    { config: { capability: 'read_comments', response: CommentListResponse }, schema: { querystring: ListCommentsQuery } },
    async (request) => {
      const { block_id, start_cursor, page_size } = request.query;
      return presentCommentList(await listComments(ctx, request.caller!, block_id, start_cursor, page_size ?? 100));
    },
  );

  app.get(
    '/v1/comments/:comment_id',
    { config: { capability: 'read_comments', response: CommentObject }, schema: { params: CommentParams } },
    async (request) => {
      const raw = request.params.comment_id;
      return presentComment(await retrieveComment(ctx, request.caller!, parseIdParam(raw, 'comment_id'), raw));
    },
  );

  app.patch(
    '/v1/comments/:comment_id',
    { config: { capability: 'insert_comments', response: WrittenCommentResponse }, schema: { params: CommentParams, body: UpdateCommentBody } },
    async (request) => {
      const raw = request.params.comment_id;
      return presentWrittenComment(await updateComment(ctx, request.caller!, parseIdParam(raw, 'comment_id'), raw, request.body ?? {}));
    },
  );

  app.delete(
    '/v1/comments/:comment_id',
    { config: { capability: 'insert_comments', response: WrittenCommentResponse }, schema: { params: CommentParams } },
    async (request) => {
      const raw = request.params.comment_id;
      return presentWrittenComment(await deleteComment(ctx, request.caller!, parseIdParam(raw, 'comment_id'), raw));
    },
  );
}

import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { PaginationQuery } from '../../schemas/common.js';
import {
  AppendChildrenBody,
  BlockParams,
  BlockListResponse,
  BlockResponse,
  WrittenBlockResponse,
  type BlockInput,
  type ContentPositionInput,
} from '../../schemas/blocks.js';
import { UpdateBlockBody, type UpdateBlockInput } from '../../domain/blocks/requestSchemas.js';
import { parseIdParam } from '../../ids/ids.js';
import { presentBlock, presentBlockList, presentWrittenBlock } from '../../presenters/block.js';
import { withOlderFacts } from '../../versioning/olderFacts.js';
import { retrieveBlock } from '../../commands/blocks/retrieveBlock.js';
import { updateBlock } from '../../commands/blocks/updateBlock.js';
import { deleteBlock } from '../../commands/blocks/deleteBlock.js';
import { listBlockChildren } from '../../commands/blocks/listBlockChildren.js';
import { appendBlockChildren } from '../../commands/blocks/appendBlockChildren.js';

export function registerBlocksRoutes(app: App, ctx: AppContext): void {
  app.get('/v1/blocks/:block_id', { config: { capability: 'read_content', response: BlockResponse }, schema: { params: BlockParams } }, async (request) => {
    const raw = request.params.block_id;
    return presentBlock(await retrieveBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw));
  });

  app.patch(
    '/v1/blocks/:block_id',
    { config: { capability: 'update_content', response: WrittenBlockResponse }, schema: { params: BlockParams, body: UpdateBlockBody } },
    async (request) => {
      const raw = request.params.block_id;
      return presentWrittenBlock(await updateBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, (request.body ?? {}) as UpdateBlockInput));
    },
  );

  app.delete(
    '/v1/blocks/:block_id',
    { config: { capability: 'update_content', response: WrittenBlockResponse }, schema: { params: BlockParams } },
    async (request) => {
      const raw = request.params.block_id;
      return presentWrittenBlock(await deleteBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw));
    },
  );

  app.get(
    '/v1/blocks/:block_id/children',
    { config: { capability: 'read_content', response: BlockListResponse }, schema: { params: BlockParams, querystring: PaginationQuery } },
    async (request) => {
      const raw = request.params.block_id;
      return presentBlockList(
        await listBlockChildren(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, request.query.start_cursor, request.query.page_size ?? 100),
      );
    },
  );

  app.patch(
    '/v1/blocks/:block_id/children',
    {
      config: { capability: 'insert_content', response: BlockListResponse },
      schema: { params: BlockParams, body: AppendChildrenBody },
    },
    async (request) => {
      const raw = request.params.block_id;
      const body = request.body as { children: BlockInput[]; position?: ContentPositionInput };
      const appended = await appendBlockChildren(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, body);
      // Before 2021-08-16 the answer was the parent block (versioning/changes/2021-08-16-append-returns-list.ts).
      return withOlderFacts(presentBlockList(appended.children), { appendedTo: presentWrittenBlock(appended.parent) });
    },
  );
}

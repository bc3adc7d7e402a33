import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { PaginationQuery } from '../../schemas/common.js';
import { AppendChildrenBody, BlockParams, UpdateBlockBody, type BlockInput, type ContentPositionInput, type UpdateBlockInput } from '../../schemas/blocks.js';
import { parseIdParam } from '../../http/ids.js';
import { APPEND_PARENT_KEY } from '../../presenters/block.js';
import { retrieveBlock } from '../../commands/blocks/retrieveBlock.js';
import { updateBlock } from '../../commands/blocks/updateBlock.js';
import { deleteBlock } from '../../commands/blocks/deleteBlock.js';
import { listBlockChildren } from '../../commands/blocks/listBlockChildren.js';
import { appendBlockChildren } from '../../commands/blocks/appendBlockChildren.js';

/** Runs after the version converters: drops the parent block the 2021-08-16 module did not need. */
async function dropAppendParent(_request: unknown, _reply: unknown, payload: unknown) {
  if (payload && typeof payload === 'object' && APPEND_PARENT_KEY in payload) {
    const { [APPEND_PARENT_KEY]: _parent, ...rest } = payload as Record<string, unknown>;
    return rest;
  }
  return payload;
}

export function registerBlocksRoutes(app: App, ctx: AppContext): void {
  app.get('/v1/blocks/:block_id', { config: { capability: 'read_content' }, schema: { params: BlockParams } }, async (request) => {
    const raw = request.params.block_id;
    return retrieveBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw);
  });

  app.patch('/v1/blocks/:block_id', { config: { capability: 'update_content' }, schema: { params: BlockParams, body: UpdateBlockBody } }, async (request) => {
    const raw = request.params.block_id;
    return updateBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, (request.body ?? {}) as UpdateBlockInput);
  });

  app.delete('/v1/blocks/:block_id', { config: { capability: 'update_content' }, schema: { params: BlockParams } }, async (request) => {
    const raw = request.params.block_id;
    return deleteBlock(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw);
  });

  app.get(
    '/v1/blocks/:block_id/children',
    { config: { capability: 'read_content' }, schema: { params: BlockParams, querystring: PaginationQuery } },
    async (request) => {
      const raw = request.params.block_id;
      return listBlockChildren(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, request.query.start_cursor, request.query.page_size ?? 100);
    },
  );

  app.patch(
    '/v1/blocks/:block_id/children',
    {
      config: { capability: 'insert_content' },
      schema: { params: BlockParams, body: AppendChildrenBody },
      preSerialization: dropAppendParent,
    },
    async (request) => {
      const raw = request.params.block_id;
      const body = request.body as { children: BlockInput[]; position?: ContentPositionInput };
      return appendBlockChildren(ctx, request.caller!, parseIdParam(raw, 'block_id'), raw, body);
    },
  );
}

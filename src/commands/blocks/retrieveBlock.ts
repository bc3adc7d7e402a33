import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { presentBlocks } from '../../presenters/block.js';
import { loadBlock } from './loadBlock.js';

/** GET /v1/blocks/{id}: a block, or a shared page or database seen as a block. */
export async function retrieveBlock(ctx: AppContext, caller: Caller, id: string, rawId: string) {
  const row = await loadBlock(ctx.store.db, caller, id, rawId);
  const [block] = await presentBlocks(ctx.store.db, [row]);
  return block;
}

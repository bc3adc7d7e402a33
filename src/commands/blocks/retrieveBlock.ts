import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { BlockView } from '../../domain/views.js';
import { loadBlock, loadBlockViews } from './loadBlock.js';

/** GET /v1/blocks/{id}: a block, or a shared page or database seen as a block. */
export async function retrieveBlock(ctx: AppContext, caller: Caller, id: string, rawId: string): Promise<BlockView> {
  const row = await loadBlock(ctx.store.db, caller, id, rawId);
  const [block] = await loadBlockViews(ctx.store.db, [row]);
  return block;
}

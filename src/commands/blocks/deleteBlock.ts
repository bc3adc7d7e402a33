import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import { assertEditable } from '../../auth/access.js';

import { setTrashed } from '../../domain/trash.js';
import { touchPageOf } from '../../storage/repositories/blocks.js';
import { findObject } from '../../storage/repositories/objects.js';
import type { BlockView, Unreadable } from '../../domain/views.js';
import { assertContentUnlocked, loadBlock, loadWrittenBlocks } from './loadBlock.js';

/**
 * DELETE /v1/blocks/{id}: moves the block (or the page or database seen as one) to the trash and
 * returns it (FACTS.md §7). Its descendants follow it; it leaves its parent's children listing.
 * Deleting what is already in the trash is an edit of a trashed object, hence refused.
 */
export async function deleteBlock(ctx: AppContext, caller: Caller, id: string, rawId: string): Promise<BlockView | Unreadable> {
  return ctx.store.transaction(async (trx) => {
    const row = await loadBlock(trx, caller, id, rawId);
    assertEditable(row);
    if (row.object === 'block') await assertContentUnlocked(trx, row);
    const at = ctx.clock.now().toISOString();
    await setTrashed(trx, row.id, true, caller.botId, at);
    await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, row, 'deleted')));
    if (row.parent_id && (row.parent_type === 'page_id' || row.parent_type === 'block_id')) await touchPageOf(trx, row.parent_id, caller.botId, at);
    const [block] = await loadWrittenBlocks(trx, caller, [(await findObject(trx, row.id))!]);
    return block;
  });
}

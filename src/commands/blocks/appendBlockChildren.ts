import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { pageContentEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { BlockInput, ContentPositionInput } from '../../schemas/blocks.js';
import { assertEditable } from '../../auth/access.js';

import { createMentionResolver } from '../../domain/mentionResolver.js';
import { insertBlockTree } from '../../domain/blocks/insertBlockTree.js';
import { touchObjects } from '../../storage/repositories/blocks.js';
import { findObject } from '../../storage/repositories/objects.js';
import type { BlockView, ListView, Unreadable } from '../../domain/views.js';
import { assertContentUnlocked, loadBlock, loadWrittenBlocks } from './loadBlock.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { resolveCustomEmojis } from '../customEmojis/resolveCustomEmojis.js';

export interface AppendChildrenInput {
  children: BlockInput[];
  position?: ContentPositionInput;
}

export interface AppendedChildren {
  /** The new first-level children. */
  children: ListView<BlockView | Unreadable>;
  /** The block appended to, as edited (the answer before 2021-08-16). */
  parent: BlockView | Unreadable;
}

/**
 * PATCH /v1/blocks/{id}/children: inserts the blocks (≤100, two nesting levels, FACTS.md §2) at
 * `position` and answers with the new first-level children. Appending edits the parent and the
 * page that holds it, so both get a new last_edited_time.
 */
export async function appendBlockChildren(ctx: AppContext, caller: Caller, id: string, rawId: string, input: AppendChildrenInput): Promise<AppendedChildren> {
  return ctx.store.transaction(async (trx) => {
    input = await attachFileUploads(trx, caller, ctx.clock.now(), input);
    input = await resolveCustomEmojis(ctx, trx, caller, input);
    const parent = await loadBlock(trx, caller, id, rawId);
    assertEditable(parent);
    // The page holding the parent (the parent itself when it is one), read once: it is touched and
    // named in the event below.
    const page = await assertContentUnlocked(trx, parent);
    const at = ctx.clock.now().toISOString();
    // First write of the transaction: on PostgreSQL it locks the parent row, so concurrent appends
    // to one parent take their positions one after the other.
    await touchObjects(trx, page && page.id !== parent.id ? [parent.id, page.id] : [parent.id], caller.botId, at);
    const rows = await insertBlockTree(trx, {
      workspaceId: caller.workspaceId,
      parentType: parent.object === 'page' ? 'page_id' : 'block_id',
      parentId: parent.id,
      actorId: caller.botId,
      children: input.children,
      position: input.position,
      at,
      resolver: createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId),
    });
    const firstLevel = rows.filter((row) => row.parent_id === parent.id);
    if (page)
      await recordEvent(
        ctx,
        trx,
        caller,
        at,
        ...(await pageContentEvent(
          trx,
          page,
          firstLevel.map((row) => row.id),
        )),
      );
    // The parent as edited and the new children, presented with one has_children query for all.
    const [edited, ...appended] = await loadWrittenBlocks(trx, caller, [(await findObject(trx, parent.id))!, ...firstLevel]);
    return { children: { items: appended, nextCursor: null }, parent: edited };
  });
}

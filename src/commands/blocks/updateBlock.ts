import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { contentEvent, lifecycleEvent, propertiesEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { UpdateBlockInput } from '../../domain/blocks/requestSchemas.js';
import { invalidField } from '../../errors/validationFailure.js';
import { parseContent, type BlockContent } from '../../domain/contentShapes.js';
import { setTrashed } from '../../domain/trash.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { buildBlockContent } from '../../domain/blocks/blockContent.js';
import { BLOCK_TYPE_DEFINITIONS, isWritableBlockType, type WritableBlockType } from '../../domain/blocks/registry.js';
import { refuseFileUpload } from '../../domain/blocks/blockChecks.js';
import { saveContent, touchPageOf } from '../../storage/repositories/blocks.js';
import { findObject } from '../../storage/repositories/objects.js';
import type { BlockView, Unreadable } from '../../domain/views.js';
import { assertContentUnlocked, loadBlock, loadWrittenBlocks } from './loadBlock.js';
import { openForEdit } from '../openForEdit.js';

/** The one type member of an update body, which must name the block's own type. */
function editedMember(row: ObjectRow, body: UpdateBlockInput): { type: WritableBlockType; member: Record<string, unknown> } | null {
  const keys = Object.keys(body).filter(isWritableBlockType);
  if (keys.length > 1) throw invalidField([keys[1]], 'should be not present', body[keys[1]]);
  const current = row.object === 'block' ? row.type : row.object === 'page' ? 'child_page' : 'child_database';
  if (body.type !== undefined && body.type !== current) throw invalidField(['type'], `should be ${JSON.stringify(current)}`, body.type);
  if (keys.length === 0) return null;
  const type = keys[0];
  if (type !== current) throw invalidField([type], `should be not present (the block is of type \`${current}\`)`, body[type]);
  return { type, member: body[type] as Record<string, unknown> };
}

/** Checks of an edit a schema cannot express: no file uploads yet, then the type's own (registry `checkEdit`). */
async function checkEdit(db: Db, row: ObjectRow, type: WritableBlockType, member: Record<string, unknown>): Promise<void> {
  refuseFileUpload(member, [type]);
  await BLOCK_TYPE_DEFINITIONS[type].checkEdit?.(db, row, member, [type]);
}

/**
 * PATCH /v1/blocks/{id}: a given field replaces the stored one and omitted fields are kept
 * (FACTS.md §2). `in_trash` trashes or restores; anything else on a block in the trash is refused
 * (FACTS.md §7), so restoring and editing in one request restores first. Pages and databases seen
 * as blocks accept only `in_trash` here.
 */
export async function updateBlock(ctx: AppContext, caller: Caller, id: string, rawId: string, given: UpdateBlockInput): Promise<BlockView | Unreadable> {
  return ctx.store.transaction(async (trx) => {
    // Read from the body as soon as the block is loaded: a malformed member is refused before trash and lock.
    const read: { edit: ReturnType<typeof editedMember> } = { edit: null };
    const { body, row, at } = await openForEdit(ctx, trx, caller, given, {
      load: async (db, b) => {
        const loaded = await loadBlock(db, caller, id, rawId);
        read.edit = editedMember(loaded, b);
        return loaded;
      },
      // Still in the trash through an ancestor after restoring: only restoring that ancestor brings it back.
      refusedInTrash: (b) => b.in_trash !== false || read.edit !== null,
      // A block's lock is its page's: content of a locked page is read-only.
      checkLock: async (db, opened, b) => {
        if (opened.object === 'block' && (read.edit || b.in_trash !== undefined)) await assertContentUnlocked(db, opened);
      },
    });
    const { edit } = read;
    if (edit) {
      await checkEdit(trx, row, edit.type, edit.member);
      const resolver = createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId);
      const content = await buildBlockContent(edit.type, edit.member, resolver, parseContent<BlockContent>(row.content));
      await saveContent(trx, row.id, JSON.stringify(content), caller.botId, at);
    }
    if (body.in_trash === true) await setTrashed(trx, row.id, true, caller.botId, at);
    if (edit || body.in_trash !== undefined) await touchPageOf(trx, row.id, caller.botId, at);
    if (edit)
      await recordEvent(ctx, trx, caller, at, ...(row.object === 'page' ? await propertiesEvent(trx, row, ['title']) : await contentEvent(trx, row.id)));
    if (body.in_trash === true) await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, row, 'deleted')));
    const [block] = await loadWrittenBlocks(trx, caller, [(await findObject(trx, row.id))!]);
    return block;
  });
}

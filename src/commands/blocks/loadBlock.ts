import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { findContainingPage } from '../../storage/repositories/blocks.js';
import { presentBlocks, presentPartialBlock } from '../../presenters/block.js';

/** What the block endpoints address: blocks, and pages and databases seen as child_page/child_database. */
export const BLOCK_OBJECTS = ['block', 'page', 'database'] as const;

export function loadBlock(db: Db, caller: Caller, id: string, rawId: string): Promise<ObjectRow> {
  return loadVisibleObject(db, caller, id, BLOCK_OBJECTS, 'block', rawId);
}

/**
 * Blocks a write returns: full with read content, otherwise only `{object, id}` (FACTS.md §2:
 * update and insert do not imply reading; the SDK types these answers as partial blocks).
 */
export async function presentWritten(db: Db, caller: Caller, rows: readonly ObjectRow[]): Promise<Record<string, unknown>[]> {
  if (!caller.capabilities.has('read_content')) return rows.map(presentPartialBlock);
  return presentBlocks(db, rows);
}

/**
 * A locked page refuses edits (src/auth/access.ts), and its blocks are its content: appending to,
 * editing or deleting a block of a locked page is refused. Trashing a page itself is not a
 * content edit, as PATCH /v1/pages treats it.
 */
export async function assertContentUnlocked(db: Db, id: string): Promise<void> {
  const page = await findContainingPage(db, id);
  if (page) assertUnlocked(page);
}

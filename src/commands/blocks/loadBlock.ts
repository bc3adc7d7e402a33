import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { BlockView, Unreadable } from '../../domain/views.js';
import { assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { parseContent } from '../../domain/contentShapes.js';
import { blockDefinitionOf } from '../../domain/blocks/registry.js';
import { findContainingPage, parentsWithChildren } from '../../storage/repositories/blocks.js';
import { findObjects } from '../../storage/repositories/objects.js';

/** What the block endpoints address: blocks, and pages and databases seen as child_page/child_database. */
export const BLOCK_OBJECTS = ['block', 'page', 'database'] as const;

export function loadBlock(db: Db, caller: Caller, id: string, rawId: string): Promise<ObjectRow> {
  return loadVisibleObject(db, caller, id, BLOCK_OBJECTS, 'block', rawId);
}

/** The block whose children a block shows: itself, unless its type says otherwise (a synced copy shows its original's). */
export function childrenSourceId(row: ObjectRow): string {
  const childrenFrom = row.object === 'block' ? blockDefinitionOf(row.type ?? '')?.childrenFrom : undefined;
  return childrenFrom?.(parseContent<Record<string, unknown>>(row.content)) ?? row.id;
}

/** What presenting blocks needs, with two queries at most: has_children for all, and databases of data source parents. */
export async function loadBlockViews(db: Db, rows: readonly ObjectRow[]): Promise<BlockView[]> {
  const sources = rows.filter((r) => r.parent_type === 'data_source_id' && r.parent_id).map((r) => r.parent_id!);
  const [withChildren, sourceRows] = await Promise.all([parentsWithChildren(db, rows.map(childrenSourceId)), findObjects(db, sources)]);
  const databaseOf = new Map(sourceRows.map((s) => [s.id, s.parent_id]));
  return rows.map((row) => ({
    kind: 'block',
    row,
    hasChildren: withChildren.has(childrenSourceId(row)),
    databaseId: row.parent_type === 'data_source_id' && row.parent_id ? (databaseOf.get(row.parent_id) ?? null) : undefined,
  }));
}

/**
 * Blocks a write returns: full with read content, otherwise only their ids (FACTS.md §2: update
 * and insert do not imply reading; the SDK types these answers as partial blocks).
 */
export async function loadWrittenBlocks(db: Db, caller: Caller, rows: readonly ObjectRow[]): Promise<Array<BlockView | Unreadable>> {
  if (!caller.capabilities.has('read_content')) return rows.map((row) => ({ kind: 'unreadable', id: row.id }));
  return loadBlockViews(db, rows);
}

/**
 * The page holding a block's content (the row itself when it is a page), which a caller about to
 * edit it touches and names in its event; undefined when none holds it. A locked page refuses
 * edits (src/auth/access.ts), and its blocks are its content: appending to, editing or deleting a
 * block of a locked page is refused. Trashing a page itself is not a content edit, as PATCH
 * /v1/pages treats it.
 */
export async function assertContentUnlocked(db: Db, row: ObjectRow): Promise<ObjectRow | undefined> {
  // A page is the nearest page to itself: the row read already is the one the ancestors would give.
  const page = row.object === 'page' ? row : await findContainingPage(db, row.id);
  if (page) assertUnlocked(page);
  return page;
}

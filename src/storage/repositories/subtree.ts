import type { Db } from '../db.js';
import type { ObjectRow } from '../schema.js';

/**
 * Everything under `rootId` that is not in the trash, parents before children and siblings in
 * their order: what copying a page's content walks.
 */
export async function listSubtree(db: Db, rootId: string): Promise<ObjectRow[]> {
  return db
    .selectFrom('object_ancestors as a')
    .innerJoin('objects as o', 'o.id', 'a.descendant_id')
    .selectAll('o')
    .where('a.ancestor_id', '=', rootId)
    .where('a.depth', '>', 0)
    .where('o.in_trash', '=', 0)
    .orderBy('a.depth')
    .orderBy('o.position')
    .orderBy('o.id')
    .execute();
}

/** The direct children of an object that are not in the trash. */
export async function listChildIds(db: Db, parentId: string): Promise<string[]> {
  const rows = await db.selectFrom('objects').select('id').where('parent_id', '=', parentId).where('in_trash', '=', 0).execute();
  return rows.map((r) => r.id);
}

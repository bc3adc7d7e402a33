/**
 * The closure table `object_ancestors` (one row per ancestor and descendant, itself included at
 * depth 0) and the trash flags it derives: what moving and trashing a subtree write.
 */
import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { ParentType } from '../schema.js';
import { nextPosition } from './objects.js';

/** Sets the object's own trash flag; its subtree's effective state is `recomputeSubtreeTrash`'s. */
export async function markTrashed(db: Db, id: string, trashed: boolean, actorId: string, at: string): Promise<void> {
  await db
    .updateTable('objects')
    .set({ trashed: trashed ? 1 : 0, last_edited_time: at, last_edited_by: actorId })
    .where('id', '=', id)
    .execute();
}

/** A descendant is in the trash while it or any ancestor is explicitly trashed. */
export async function recomputeSubtreeTrash(db: Db, rootId: string): Promise<void> {
  await db
    .updateTable('objects')
    .set({
      in_trash: sql<number>`(case when exists (
        select 1 from object_ancestors a join objects t on t.id = a.ancestor_id
        where a.descendant_id = objects.id and t.trashed = 1
      ) then 1 else 0 end)`,
    })
    .where('id', 'in', (eb) => eb.selectFrom('object_ancestors').select('descendant_id').where('ancestor_id', '=', rootId))
    .execute();
}

/** Whether `descendantId` is `ancestorId` or sits somewhere under it. */
export async function isWithin(db: Db, ancestorId: string, descendantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('object_ancestors')
    .select('descendant_id')
    .where('ancestor_id', '=', ancestorId)
    .where('descendant_id', '=', descendantId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves a subtree under a new parent: the closure rows linking it to its old ancestors are replaced
 * by rows to the new ones, and the object goes last among its new siblings.
 */
export async function reparentSubtree(db: Db, id: string, parentType: ParentType, parentId: string | null): Promise<void> {
  const subtree = db.selectFrom('object_ancestors').select('descendant_id').where('ancestor_id', '=', id);
  await db.deleteFrom('object_ancestors').where('descendant_id', 'in', subtree).where('ancestor_id', 'not in', subtree).execute();
  if (parentId) {
    await db
      .insertInto('object_ancestors')
      .columns(['ancestor_id', 'descendant_id', 'depth'])
      .expression((eb) =>
        eb
          .selectFrom('object_ancestors as up')
          .innerJoin('object_ancestors as down', (join) => join.onTrue())
          .select((s) => ['up.ancestor_id', 'down.descendant_id', s(s('up.depth', '+', s.ref('down.depth')), '+', 1).as('depth')])
          .where('up.descendant_id', '=', parentId)
          .where('down.ancestor_id', '=', id),
      )
      .execute();
  }
  await db
    .updateTable('objects')
    .set({ parent_type: parentType, parent_id: parentId, position: await nextPosition(db, parentId) })
    .where('id', '=', id)
    .execute();
}

/** The outermost ancestor of an object (itself when at the top): what is shared to reach it. */
export async function topAncestor(db: Db, id: string): Promise<string> {
  const row = await db
    .selectFrom('object_ancestors')
    .select('ancestor_id')
    .where('descendant_id', '=', id)
    .orderBy('depth', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.ancestor_id ?? id;
}

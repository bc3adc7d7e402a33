import { sql } from 'kysely';
import type { Db } from '../storage/db.js';
import { refreshAfterTrashChange } from './properties/refreshComputed.js';
import { findObject } from '../storage/repositories/objects.js';

/**
 * Trashes or restores an object and keeps the effective state of its subtree true: a descendant is
 * in the trash while it or any ancestor is explicitly trashed (FACTS.md §7: children inherit the
 * parent's trash state), so restoring a parent does not restore a child trashed on its own.
 * Pages relating to a page of the subtree see it leave (or rejoin) their relations and rollups.
 */
export async function setTrashed(db: Db, objectId: string, trashed: boolean, actorId: string, at: string): Promise<void> {
  const before = (await findObject(db, objectId))?.in_trash;
  await db
    .updateTable('objects')
    .set({ trashed: trashed ? 1 : 0, last_edited_time: at, last_edited_by: actorId })
    .where('id', '=', objectId)
    .execute();
  await db
    .updateTable('objects')
    .set({
      in_trash: sql<number>`(case when exists (
        select 1 from object_ancestors a join objects t on t.id = a.ancestor_id
        where a.descendant_id = objects.id and t.trashed = 1
      ) then 1 else 0 end)`,
    })
    .where('id', 'in', (eb) => eb.selectFrom('object_ancestors').select('descendant_id').where('ancestor_id', '=', objectId))
    .execute();
  // Only the root's flag or its ancestors changed: a descendant's state changed only if the root's did.
  if ((await findObject(db, objectId))?.in_trash !== before) await refreshAfterTrashChange(db, objectId, new Date(at));
}

import type { Db } from '../db.js';
import type { ParentType } from '../../storage/schema.js';
import { nextPosition } from '../../storage/repositories/objects.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { setTrashed } from '../../domain/trash.js';

/**
 * Moves an object and its subtree under a new parent: the closure rows linking the subtree to its
 * old ancestors are replaced by rows to the new ones, and the subtree's effective trash state is
 * recomputed (it may now sit under something trashed, or no longer).
 */
export async function moveObject(
  db: Db,
  move: { id: string; trashed: boolean; parentType: ParentType; parentId: string | null; actorId: string; at: string },
  path: FieldPath,
): Promise<void> {
  const { id, parentId } = move;
  if (parentId) {
    const cycle = await db
      .selectFrom('object_ancestors')
      .select('descendant_id')
      .where('ancestor_id', '=', id)
      .where('descendant_id', '=', parentId)
      .executeTakeFirst();
    if (cycle) throw invalidField(path, 'should not be the object itself or one of its descendants', parentId);
  }
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
    .set({ parent_type: move.parentType, parent_id: parentId, position: await nextPosition(db, parentId) })
    .where('id', '=', id)
    .execute();
  await setTrashed(db, id, move.trashed, move.actorId, move.at);
}

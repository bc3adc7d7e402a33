import type { Db } from '../storage/db.js';
import type { ParentType } from '../storage/schema.js';
import { invalidField, type FieldPath } from '../errors/validationFailure.js';
import { isWithin, reparentSubtree } from '../storage/repositories/objectAncestors.js';
import { setTrashed } from './trash.js';

/**
 * Moves an object and its subtree under a new parent, refusing a parent inside the subtree; the
 * subtree's effective trash state is recomputed (it may now sit under something trashed, or no longer).
 */
export async function moveObject(
  db: Db,
  move: { id: string; trashed: boolean; parentType: ParentType; parentId: string | null; actorId: string; at: string },
  path: FieldPath,
): Promise<void> {
  const { id, parentId } = move;
  if (parentId && (await isWithin(db, id, parentId))) {
    throw invalidField(path, 'should not be the object itself or one of its descendants', parentId);
  }
  await reparentSubtree(db, id, move.parentType, parentId);
  await setTrashed(db, id, move.trashed, move.actorId, move.at);
}

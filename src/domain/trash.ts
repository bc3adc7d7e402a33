import type { Db } from '../storage/db.js';
import { refreshAfterTrashChange } from './properties/refreshComputed.js';
import { findObject } from '../storage/repositories/objects.js';
import { markTrashed, recomputeSubtreeTrash } from '../storage/repositories/objectAncestors.js';

/**
 * Trashes or restores an object and keeps the effective state of its subtree true: a descendant is
 * in the trash while it or any ancestor is explicitly trashed (FACTS.md §7: children inherit the
 * parent's trash state), so restoring a parent does not restore a child trashed on its own.
 * Pages relating to a page of the subtree see it leave (or rejoin) their relations and rollups.
 */
export async function setTrashed(db: Db, objectId: string, trashed: boolean, actorId: string, at: string): Promise<void> {
  const before = (await findObject(db, objectId))?.in_trash;
  await markTrashed(db, objectId, trashed, actorId, at);
  await recomputeSubtreeTrash(db, objectId);
  // Only the root's flag or its ancestors changed: a descendant's state changed only if the root's did.
  if ((await findObject(db, objectId))?.in_trash !== before) await refreshAfterTrashChange(db, objectId, new Date(at));
}

/**
 * Writes one object below the API, for content no endpoint under test creates (or for many of
 * them fast): live (not in trash, unlocked, not archived), created and last edited by one actor
 * at one time, as a command would leave it.
 */
import type { Db } from '../../src/storage/db.js';
import type { NewObject } from '../../src/storage/schema.js';
import { insertObject } from '../../src/storage/repositories/objects.js';

export type SeededObject = Pick<NewObject, 'id' | 'workspace_id' | 'object' | 'type' | 'parent_type' | 'parent_id' | 'position' | 'title'> & {
  /** The type-specific payload, stored as JSON. */
  content: unknown;
};

export async function seedObject(db: Db, object: SeededObject, actorId: string, at: string): Promise<void> {
  await insertObject(db, {
    ...object,
    content: JSON.stringify(object.content),
    in_trash: 0,
    trashed: 0,
    is_locked: 0,
    is_archived: 0,
    created_time: at,
    created_by: actorId,
    last_edited_time: at,
    last_edited_by: actorId,
  });
}

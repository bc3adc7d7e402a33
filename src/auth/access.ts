import type { Caller } from './capabilities.js';
import type { Db } from '../storage/db.js';
import type { ObjectKindColumn, ObjectRow } from '../storage/schema.js';
import { findObjectForConnection } from '../storage/repositories/grants.js';
import { notFound, validationError, type ObjectKind } from '../errors/registry.js';

/**
 * Loads an object the caller may see, or throws object_not_found. Missing, of another workspace,
 * of another kind, or not shared: all four answer the same bytes (the message names `kind` and the
 * id as the caller wrote it).
 */
export async function loadVisibleObject(
  db: Db,
  caller: Caller,
  id: string,
  kinds: readonly ObjectKindColumn[],
  kind: ObjectKind,
  rawId: string = id,
): Promise<ObjectRow> {
  const found = await findObjectForConnection(db, id, caller.connectionId);
  if (!found || found.row.workspace_id !== caller.workspaceId || !kinds.includes(found.row.object) || !found.shared) throw notFound(kind, rawId);
  return found.row;
}

/** FACTS.md §7: anything in the trash, or locked, refuses edits other than restoring. */
export function assertEditable(row: ObjectRow): void {
  if (row.in_trash === 1) {
    throw validationError(
      `Can't edit ${row.object === 'block' ? 'block' : row.object.replace('_', ' ')} that is archived. You must unarchive the ${row.object === 'block' ? 'block' : row.object.replace('_', ' ')} before editing.`,
    );
  }
}

export function assertUnlocked(row: ObjectRow): void {
  if (row.is_locked === 1) throw validationError(`Can't edit ${row.object} that is locked. You must unlock the ${row.object} before editing.`);
}

/**
 * Whether a connection sees an object, by the rule loadVisibleObject applies to its requests (of
 * its workspace and shared with it, directly or through an ancestor): what a webhook event about
 * the object needs before it goes to the connection's subscription.
 */
export async function isVisibleTo(db: Db, connectionId: string, workspaceId: string, id: string): Promise<boolean> {
  const found = await findObjectForConnection(db, id, connectionId);
  return found !== undefined && found.row.workspace_id === workspaceId && found.shared;
}

import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { CommentRow } from '../../storage/schema.js';
import type { CommentView, Unreadable } from '../../domain/views.js';
import { notFound } from '../../errors/registry.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import { findComment } from '../../storage/repositories/comments.js';

/**
 * Whether the caller may see the comments on an object: it is in the caller's workspace, shared
 * with the connection, and not in the trash. A comment goes to the trash with its page or block
 * (docs/decisions.md "Comments"), and comes back when it is restored: nothing is written to the
 * comments themselves, so their visibility follows the object's effective trash state.
 */
export async function commentsVisibleOn(db: Db, caller: Caller, objectId: string): Promise<boolean> {
  const found = await findObjectForConnection(db, objectId, caller.connectionId);
  return !!found && found.shared && found.row.workspace_id === caller.workspaceId && found.row.in_trash === 0;
}

/** A comment the caller may see, or object_not_found naming the id as written: missing and unshared answer alike. */
export async function loadVisibleComment(db: Db, caller: Caller, id: string, rawId: string): Promise<CommentRow> {
  const row = await findComment(db, id);
  if (!row || row.workspace_id !== caller.workspaceId || !(await commentsVisibleOn(db, caller, row.parent_id))) throw notFound('comment', rawId);
  return row;
}

/** A comment the connection wrote (FACTS.md §10.2: another's comment is not found, for update and delete alike). */
export async function loadOwnComment(db: Db, caller: Caller, id: string, rawId: string): Promise<CommentRow> {
  const row = await loadVisibleComment(db, caller, id, rawId);
  if (row.created_by !== caller.botId) throw notFound('comment', rawId);
  return row;
}

/** A written comment as answered: in full with read_comments, otherwise only its id (FACTS.md §10.2). */
export function writtenComment(caller: Caller, row: CommentRow): CommentView | Unreadable {
  return caller.capabilities.has('read_comments') ? { kind: 'comment', row } : { kind: 'unreadable', id: row.id };
}

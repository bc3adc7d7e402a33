import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { CommentDisplayType } from '../../storage/schema.js';
import type { CreateCommentInput } from '../../schemas/comments.js';
import { findUser } from '../../storage/repositories/users.js';

/**
 * The name a comment shows (FACTS.md §10.2 `display_name`), resolved once when it is written:
 * `integration` (the default) is the connection's name; `user` the person the connection acts
 * for, or the connection's name for an internal connection, which acts for nobody; `custom` the
 * name given (docs/decisions.md "Comments").
 */
export async function commentDisplayName(
  db: Db,
  caller: Caller,
  given: CreateCommentInput['display_name'],
): Promise<{ display_type: CommentDisplayType; display_name: string | null }> {
  if (!given || given.type === 'integration') return { display_type: 'integration', display_name: caller.connectionName };
  if (given.type === 'custom') return { display_type: 'custom', display_name: given.custom.name };
  const person = caller.userId ? await findUser(db, caller.workspaceId, caller.userId) : undefined;
  return { display_type: 'user', display_name: person ? person.name : caller.connectionName };
}

import type { Db } from '../db.js';
import type { UserRow } from '../schema.js';
import { changingCallers } from '../callerChanges.js';

export async function insertUser(db: Db, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function findUser(db: Db, workspaceId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

/**
 * Keyset page of a workspace's users in id order. The workspace's system user (the admin plane's
 * actor on stores created before pages had real authors) is internal and never listed.
 */
export async function listUsers(db: Db, workspaceId: string, afterId: string | null, limit: number): Promise<UserRow[]> {
  let query = db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'not in', db.selectFrom('workspaces').select('system_user_id').where('id', '=', workspaceId));
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/** The person who joined the workspace first: the default author of what the admin plane creates. */
export async function findFirstPerson(db: Db, workspaceId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', 'person')
    .orderBy('created_time')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Deletes a person with the revoked connections that acted for them (and those connections' bots
 * and grants); the caller has checked that no live connection acts for them. Run in a transaction.
 */
export async function deletePersonTree(db: Db, userId: string): Promise<void> {
  const revoked = db.selectFrom('connections').select('id').where('user_id', '=', userId);
  const bots = await db.selectFrom('connections').select('bot_id').where('user_id', '=', userId).execute();
  await db.deleteFrom('grants').where('connection_id', 'in', revoked).execute();
  // Their blobs' bytes live outside the transaction: the sweeper deletes blobs whose upload is gone.
  await db.deleteFrom('file_uploads').where('connection_id', 'in', revoked).execute();
  await db.deleteFrom('view_queries').where('connection_id', 'in', revoked).execute();
  const ids = [userId, ...bots.map((b) => b.bot_id)];
  await changingCallers(db, async (trx) => {
    await trx.deleteFrom('connections').where('user_id', '=', userId).execute();
    await trx.deleteFrom('users').where('id', 'in', ids).execute();
  });
}

export async function renameUser(db: Db, id: string, name: string): Promise<void> {
  await changingCallers(db, (trx) => trx.updateTable('users').set({ name }).where('id', '=', id).execute());
}

export async function setUserMeetingNotes(db: Db, id: string, enabled: number): Promise<void> {
  await changingCallers(db, (trx) => trx.updateTable('users').set({ meeting_notes_enabled: enabled }).where('id', '=', id).execute());
}

export async function loadWorkspaceUsers(db: Db, workspaceId: string): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().where('workspace_id', '=', workspaceId).execute();
}

/** A user by id alone, whichever workspace they are in (user ids are unique across workspaces). */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

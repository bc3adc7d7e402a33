import type { Db } from '../db.js';
import type { UserRow } from '../schema.js';

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

/** Keyset page of a workspace's users in id order. */
export async function listUsers(db: Db, workspaceId: string, afterId: string | null, limit: number): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().where('workspace_id', '=', workspaceId);
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

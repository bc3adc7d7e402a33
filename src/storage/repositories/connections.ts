import type { Db } from '../db.js';
import type { ConnectionRow } from '../schema.js';

export async function insertConnection(db: Db, row: ConnectionRow): Promise<void> {
  await db.insertInto('connections').values(row).execute();
}

export async function findConnection(db: Db, id: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('connections').selectAll().where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst();
}

export async function revokeConnection(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('connections').set({ revoked_time: at }).where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

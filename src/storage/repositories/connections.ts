import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { ConnectionRow } from '../schema.js';
import { changingCallers } from '../callerChanges.js';

export async function insertConnection(db: Db, row: ConnectionRow): Promise<void> {
  await db.insertInto('connections').values(row).execute();
}

export async function findConnection(db: Db, id: string): Promise<ConnectionRow | undefined> {
  return db.selectFrom('connections').selectAll().where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst();
}

export async function revokeConnection(db: Db, id: string, at: string): Promise<boolean> {
  const result = await changingCallers(db, (trx) =>
    trx.updateTable('connections').set({ revoked_time: at }).where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

/** Keyset page of a workspace's live connections in id order. */
export async function listConnections(db: Db, workspaceId: string, afterId: string | null, limit: number): Promise<ConnectionRow[]> {
  let query = db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).where('revoked_time', 'is', null);
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/** Live connections that act for a person (public and personal kinds). */
export async function countConnectionsActingFor(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('connections')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_time', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Changes a live connection's name, capabilities or token hash. SQLite's caller cache
 * (callerLookup.ts) sees its stamp move and PostgreSQL's hears the notice: the old token fails on
 * the next request.
 */
export async function updateConnection(
  db: Db,
  id: string,
  changes: Partial<Pick<ConnectionRow, 'name' | 'capabilities' | 'user_info' | 'token_hash' | 'ai_credit_limit'>>,
): Promise<boolean> {
  const result = await changingCallers(db, (trx) =>
    trx.updateTable('connections').set(changes).where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) > 0;
}

export async function addCreditsUsed(db: Db, id: string, amount: number): Promise<void> {
  await changingCallers(db, (trx) =>
    trx
      .updateTable('connections')
      .set({ ai_credits_used: sql<number>`ai_credits_used + ${amount}` })
      .where('id', '=', id)
      .execute(),
  );
}

/** The token hash of a connection not revoked: how work done later on its behalf finds its caller again. */
export async function liveTokenHash(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('connections').select('token_hash').where('id', '=', id).where('revoked_time', 'is', null).executeTakeFirst();
  return row?.token_hash;
}

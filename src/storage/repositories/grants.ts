import { sql, type Expression } from 'kysely';
import type { Db } from '../db.js';
import type { ObjectRow } from '../schema.js';
import { fixedStatement } from '../fixedStatement.js';

export async function insertGrant(db: Db, connectionId: string, objectId: string, at: string): Promise<void> {
  await db
    .insertInto('grants')
    .values({ connection_id: connectionId, object_id: objectId, created_time: at })
    .onConflict((oc) => oc.columns(['connection_id', 'object_id']).doNothing())
    .execute();
}

export async function deleteGrant(db: Db, connectionId: string, objectId: string): Promise<boolean> {
  const result = await db.deleteFrom('grants').where('connection_id', '=', connectionId).where('object_id', '=', objectId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The object or one of its ancestors was shared with the connection (object_ancestors holds each object at depth 0). */
function sharedWith(connectionId: string, objectId: Expression<string> | string) {
  return sql<boolean>`EXISTS (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id WHERE a.descendant_id = ${objectId} AND g.connection_id = ${connectionId})`;
}

/**
 * An object and whether it is shared with the connection, in one statement: every request that
 * names an object asks both (auth/access.ts), and two statements cost twice the builder's work.
 */
export async function findObjectForConnection(db: Db, id: string, connectionId: string): Promise<{ row: ObjectRow; shared: boolean } | undefined> {
  const found = await objectForConnection.first(db, { id, connectionId });
  if (!found) return undefined;
  const { shared_with_connection: shared, ...row } = found;
  return { row, shared: Number(shared) === 1 };
}

const objectForConnection = fixedStatement((db, args: { id: string; connectionId: string }) =>
  db
    .selectFrom('objects as o')
    .selectAll('o')
    .select(sql<number>`CASE WHEN ${sharedWith(args.connectionId, sql.ref('o.id'))} THEN 1 ELSE 0 END`.as('shared_with_connection'))
    .where('o.id', '=', args.id),
);

/** True when the object or one of its ancestors was shared with the connection. */
export async function isShared(db: Db, connectionId: string, objectId: string): Promise<boolean> {
  const { rows } = await sql<{ shared: number }>`SELECT CASE WHEN ${sharedWith(connectionId, objectId)} THEN 1 ELSE 0 END AS shared`.execute(db);
  return Number(rows[0].shared) === 1;
}

/** Keyset page of a connection's grants in object id order. */
export async function listGrants(db: Db, connectionId: string, afterObjectId: string | null, limit: number) {
  let query = db.selectFrom('grants').selectAll().where('connection_id', '=', connectionId);
  if (afterObjectId) query = query.where('object_id', '>', afterObjectId);
  return query.orderBy('object_id').limit(limit).execute();
}

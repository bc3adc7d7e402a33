import { sql } from 'kysely';
import type { Db } from '../db.js';

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

/** True when the object or one of its ancestors was shared with the connection. */
export async function isShared(db: Db, connectionId: string, objectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('object_ancestors as a')
    .innerJoin('grants as g', 'g.object_id', 'a.ancestor_id')
    .select(sql<number>`1`.as('one'))
    .where('a.descendant_id', '=', objectId)
    .where('g.connection_id', '=', connectionId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Keyset page of a connection's grants in object id order. */
export async function listGrants(db: Db, connectionId: string, afterObjectId: string | null, limit: number) {
  let query = db.selectFrom('grants').selectAll().where('connection_id', '=', connectionId);
  if (afterObjectId) query = query.where('object_id', '>', afterObjectId);
  return query.orderBy('object_id').limit(limit).execute();
}

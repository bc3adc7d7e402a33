import type { Db } from '../db.js';
import type { ConnectionRow, IntegrationConnectionRow, IntegrationRow } from '../schema.js';

export async function insertIntegration(db: Db, row: IntegrationRow): Promise<void> {
  await db.insertInto('integrations').values(row).execute();
}

/** An integration by its id: what webhook subscriptions (issue 27 item 5) name. */
export async function findIntegration(db: Db, id: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findIntegrationByClientId(db: Db, clientId: string): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integrations').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** Keyset page of every integration in id order (they are server-wide). */
export async function listIntegrations(db: Db, afterId: string | null, limit: number): Promise<IntegrationRow[]> {
  let query = db.selectFrom('integrations').selectAll();
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

export async function updateIntegration(
  db: Db,
  id: string,
  changes: Partial<Pick<IntegrationRow, 'name' | 'redirect_uris' | 'capabilities' | 'webhook_url' | 'secret_hash'>>,
): Promise<boolean> {
  const result = await db.updateTable('integrations').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes the integration and what waits on it (codes); its connections are revoked by the caller. */
export async function deleteIntegration(db: Db, id: string): Promise<boolean> {
  await db.deleteFrom('oauth_codes').where('integration_id', '=', id).execute();
  await db.deleteFrom('oauth_refresh_tokens').where('integration_id', '=', id).execute();
  await db.deleteFrom('integration_connections').where('integration_id', '=', id).execute();
  const result = await db.deleteFrom('integrations').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertIntegrationConnection(db: Db, row: IntegrationConnectionRow): Promise<void> {
  await db.insertInto('integration_connections').values(row).execute();
}

/**
 * The live connections installed from an integration, with the workspace and the approving user
 * of each: who a webhook subscription of a public integration delivers to (issue 27 item 5).
 */
export async function listIntegrationConnections(db: Db, integrationId: string): Promise<ConnectionRow[]> {
  return db
    .selectFrom('integration_connections as ic')
    .innerJoin('connections as c', 'c.id', 'ic.connection_id')
    .selectAll('c')
    .where('ic.integration_id', '=', integrationId)
    .where('c.revoked_time', 'is', null)
    .orderBy('c.id')
    .execute();
}

/** Which integration a connection was installed from; undefined for internal and personal ones. */
export async function findIntegrationConnection(db: Db, connectionId: string): Promise<IntegrationConnectionRow | undefined> {
  return db.selectFrom('integration_connections').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
}

export async function markAccessIssued(db: Db, connectionId: string, at: string): Promise<void> {
  await db.updateTable('integration_connections').set({ access_issued_time: at }).where('connection_id', '=', connectionId).execute();
}

/** The live connection of this integration whose access token has this hash, with when the token was issued. */
export async function findConnectionByAccessToken(db: Db, tokenHash: string, integrationId: string) {
  return db
    .selectFrom('connections as c')
    .innerJoin('integration_connections as ic', 'ic.connection_id', 'c.id')
    .selectAll('c')
    .select('ic.access_issued_time')
    .where('c.token_hash', '=', tokenHash)
    .where('c.revoked_time', 'is', null)
    .where('ic.integration_id', '=', integrationId)
    .executeTakeFirst();
}

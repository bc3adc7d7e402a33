import type { Db } from '../db.js';
import type { BrowserSessionRow, OAuthCodeRow } from '../schema.js';

export async function insertSignInLink(db: Db, row: { token_hash: string; workspace_id: string; user_id: string; expires_at: string }): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ ...row, used_time: null })
    .execute();
}

/**
 * Uses a sign-in link: one statement marks it used only if it is unused and unexpired, so two
 * browsers opening the same link cannot both sign in. Returns whom it signs in, or undefined.
 */
export async function consumeSignInLink(db: Db, tokenHash: string, at: string): Promise<{ workspace_id: string; user_id: string } | undefined> {
  const result = await db
    .updateTable('sign_in_links')
    .set({ used_time: at })
    .where('token_hash', '=', tokenHash)
    .where('used_time', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return db.selectFrom('sign_in_links').select(['workspace_id', 'user_id']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function insertBrowserSession(db: Db, row: BrowserSessionRow): Promise<void> {
  await db.insertInto('browser_sessions').values(row).execute();
}

export async function findBrowserSession(db: Db, tokenHash: string, at: string): Promise<BrowserSessionRow | undefined> {
  return db.selectFrom('browser_sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', at).executeTakeFirst();
}

export async function insertOAuthCode(db: Db, row: OAuthCodeRow): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

/**
 * Uses a code of this integration: marked used in the same statement that checks it is unused and
 * unexpired, so a code is exchanged once even by two concurrent requests.
 */
export async function consumeOAuthCode(db: Db, codeHash: string, integrationId: string, at: string): Promise<OAuthCodeRow | undefined> {
  const result = await db
    .updateTable('oauth_codes')
    .set({ used_time: at })
    .where('code_hash', '=', codeHash)
    .where('integration_id', '=', integrationId)
    .where('used_time', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

export async function insertRefreshToken(
  db: Db,
  row: { token_hash: string; connection_id: string; integration_id: string; created_time: string },
): Promise<void> {
  await db
    .insertInto('oauth_refresh_tokens')
    .values({ ...row, revoked_time: null })
    .execute();
}

/** Retires a live refresh token of this integration, once; returns its connection. */
export async function consumeRefreshToken(db: Db, tokenHash: string, integrationId: string, at: string): Promise<string | undefined> {
  const result = await db
    .updateTable('oauth_refresh_tokens')
    .set({ revoked_time: at })
    .where('token_hash', '=', tokenHash)
    .where('integration_id', '=', integrationId)
    .where('revoked_time', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  const row = await db.selectFrom('oauth_refresh_tokens').select('connection_id').where('token_hash', '=', tokenHash).executeTakeFirst();
  return row?.connection_id;
}

export async function findLiveRefreshToken(db: Db, tokenHash: string, integrationId: string) {
  return db
    .selectFrom('oauth_refresh_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('integration_id', '=', integrationId)
    .where('revoked_time', 'is', null)
    .executeTakeFirst();
}

export async function revokeRefreshTokensOf(db: Db, connectionId: string, at: string): Promise<void> {
  await db.updateTable('oauth_refresh_tokens').set({ revoked_time: at }).where('connection_id', '=', connectionId).where('revoked_time', 'is', null).execute();
}

/** The rows of a workspace's people in the install flow, for workspace deletion. */
export async function deleteOAuthRowsOfWorkspace(db: Db, workspaceId: string): Promise<void> {
  const connections = db.selectFrom('connections').select('id').where('workspace_id', '=', workspaceId);
  await db.deleteFrom('oauth_refresh_tokens').where('connection_id', 'in', connections).execute();
  await db.deleteFrom('integration_connections').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('oauth_codes').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('browser_sessions').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('sign_in_links').where('workspace_id', '=', workspaceId).execute();
}

/** What the consent page offers to share: the workspace's top-level pages and databases, not in the trash. */
export async function listShareableTopLevel(db: Db, workspaceId: string, limit: number) {
  return db
    .selectFrom('objects')
    .select(['id', 'title', 'object'])
    .where('workspace_id', '=', workspaceId)
    .where('parent_type', '=', 'workspace')
    .where('object', 'in', ['page', 'database'])
    .where('in_trash', '=', 0)
    .orderBy('position')
    .orderBy('id')
    .limit(limit)
    .execute();
}

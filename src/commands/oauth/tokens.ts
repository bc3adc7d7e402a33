import type { AppContext } from '../../context.js';
import type { Db } from '../../storage/db.js';
import { OAuthError } from '../../errors/oauthError.js';
import { clientCredentials } from '../../auth/clientCredentials.js';
import { generateToken, hashToken, hashesMatch } from '../../auth/tokens.js';
import {
  findConnectionByAccessToken,
  findIntegrationByClientId,
  insertIntegrationConnection,
  markAccessIssued,
} from '../../storage/repositories/integrations.js';
import { consumeOAuthCode, consumeRefreshToken, findLiveRefreshToken, insertRefreshToken, revokeRefreshTokensOf } from '../../storage/repositories/oauth.js';
import { findConnection, insertConnection, revokeConnection, updateConnection } from '../../storage/repositories/connections.js';
import { findUser, insertUser } from '../../storage/repositories/users.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findObject } from '../../storage/repositories/objects.js';
import { insertGrant } from '../../storage/repositories/grants.js';
import { capabilitiesOf, redirectUrisOf, type IssuedTokensView } from '../../domain/oauth/oauth.js';
import type { ConnectionRow, IntegrationRow, OAuthCodeRow } from '../../storage/schema.js';
import { splitCapabilities } from '../admin/connections.js';

/** The integration calling, by its Basic credentials; a wrong id or secret is the same `invalid_client`. */
async function authenticateClient(ctx: AppContext, header: string | undefined): Promise<IntegrationRow> {
  const { clientId, clientSecret } = clientCredentials(header);
  const integration = await findIntegrationByClientId(ctx.store.db, clientId);
  if (!integration || !hashesMatch(hashToken(clientSecret), integration.secret_hash)) {
    throw new OAuthError('invalid_client', 'Client authentication failed: unknown client_id or wrong client_secret.');
  }
  return integration;
}

function bodyOf(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'The request body should be an object.');
  return body as Record<string, unknown>;
}

function requiredText(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new OAuthError('invalid_request', `${field} should be a non-empty string.`);
  return value;
}

/**
 * FACTS.md §10.9: `redirect_uri` is required when the authorize request named one (and must be the
 * same), or when the integration has several; not allowed when it has one and none was named.
 */
function checkRedirectUri(code: OAuthCodeRow, integration: IntegrationRow, presented: unknown): void {
  const several = redirectUrisOf(integration).length > 1;
  if (presented === undefined || presented === null) {
    if (code.redirect_uri_given === 1 || several) throw new OAuthError('invalid_request', 'redirect_uri is required: the authorization request named one.');
    return;
  }
  if (typeof presented !== 'string') throw new OAuthError('invalid_request', 'redirect_uri should be a string.');
  if (code.redirect_uri_given === 0 && !several) {
    throw new OAuthError('invalid_request', 'redirect_uri should not be present: the authorization request did not name one.');
  }
  if (presented !== code.redirect_uri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the one the authorization code was issued to.');
}

/** Issues a connection's next pair of tokens: the access token replaces the one it had (only its hash is kept). */
async function issueTokens(trx: Db, connection: ConnectionRow, integration: IntegrationRow, at: string) {
  const accessToken = generateToken();
  const refreshToken = generateToken();
  await updateConnection(trx, connection.id, { token_hash: hashToken(accessToken) });
  await markAccessIssued(trx, connection.id, at);
  await insertRefreshToken(trx, { token_hash: hashToken(refreshToken), connection_id: connection.id, integration_id: integration.id, created_time: at });
  return { accessToken, refreshToken };
}

async function tokensView(trx: Db, connection: ConnectionRow, tokens: { accessToken: string; refreshToken: string }): Promise<IssuedTokensView> {
  const workspace = await findWorkspace(trx, connection.workspace_id);
  const owner = connection.user_id ? await findUser(trx, connection.workspace_id, connection.user_id) : undefined;
  if (!workspace || !owner) throw new OAuthError('invalid_grant', 'The workspace or the person who approved this authorization no longer exists.');
  return { ...tokens, botId: connection.bot_id, workspace, owner, ownerEmail: connection.user_info === 'user_info_with_email' };
}

/**
 * The code's grant becomes a public connection acting for the person who approved it: its bot,
 * its capabilities (the integration's, as approved), and a grant on each page chosen that still
 * exists, so it sees those pages and everything under them.
 */
async function installConnection(ctx: AppContext, trx: Db, integration: IntegrationRow, code: OAuthCodeRow, at: string): Promise<ConnectionRow> {
  const user = await findUser(trx, code.workspace_id, code.user_id);
  if (!user) throw new OAuthError('invalid_grant', 'The person who approved this authorization no longer exists.');
  const { content, userInfo } = splitCapabilities(capabilitiesOf(integration));
  const botId = ctx.newId();
  const row: ConnectionRow = {
    id: ctx.newId(),
    workspace_id: code.workspace_id,
    name: integration.name,
    kind: 'public',
    capabilities: JSON.stringify(content),
    user_info: userInfo,
    user_id: code.user_id,
    bot_id: botId,
    // Replaced by issueTokens in the same transaction; never a token anyone holds.
    token_hash: hashToken(generateToken()),
    created_time: at,
    revoked_time: null,
    ai_credit_limit: null,
    ai_credits_used: 0,
  };
  await insertUser(trx, {
    id: botId,
    workspace_id: code.workspace_id,
    type: 'bot',
    name: integration.name,
    avatar_url: null,
    email: null,
    email_verified: 0,
    meeting_notes_enabled: 0,
    created_time: at,
  });
  await insertConnection(trx, row);
  await insertIntegrationConnection(trx, {
    connection_id: row.id,
    integration_id: integration.id,
    workspace_id: code.workspace_id,
    user_id: code.user_id,
    access_issued_time: at,
    created_time: at,
  });
  for (const pageId of JSON.parse(code.page_ids) as string[]) {
    const object = await findObject(trx, pageId);
    if (object && object.workspace_id === code.workspace_id) await insertGrant(trx, row.id, pageId, at);
  }
  return row;
}

/** POST /v1/oauth/token (FACTS.md §10.9): `authorization_code` or `refresh_token`. */
export async function exchangeToken(ctx: AppContext, authorization: string | undefined, rawBody: unknown): Promise<IssuedTokensView> {
  const integration = await authenticateClient(ctx, authorization);
  const body = bodyOf(rawBody);
  const grantType = body.grant_type;
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required.');
  const at = ctx.clock.now().toISOString();
  if (grantType === 'authorization_code') {
    const code = requiredText(body, 'code');
    return ctx.store.transaction(async (trx) => {
      const grant = await consumeOAuthCode(trx, hashToken(code), integration.id, at);
      if (!grant) throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired, or was already used.');
      checkRedirectUri(grant, integration, body.redirect_uri);
      const connection = await installConnection(ctx, trx, integration, grant, at);
      return tokensView(trx, connection, await issueTokens(trx, connection, integration, at));
    });
  }
  if (grantType === 'refresh_token') {
    const refreshToken = requiredText(body, 'refresh_token');
    return ctx.store.transaction(async (trx) => {
      const connectionId = await consumeRefreshToken(trx, hashToken(refreshToken), integration.id, at);
      const connection = connectionId ? await findConnection(trx, connectionId) : undefined;
      if (!connection) throw new OAuthError('invalid_grant', 'The refresh token is invalid, was revoked, or was already used.');
      return tokensView(trx, connection, await issueTokens(trx, connection, integration, at));
    });
  }
  throw new OAuthError(
    'unsupported_grant_type',
    `grant_type should be authorization_code or refresh_token, instead was ${JSON.stringify(grantType).slice(0, 100)}.`,
  );
}

/** The live connection of this integration a token belongs to, as its access or its refresh token. */
async function connectionOfToken(ctx: AppContext, integration: IntegrationRow, token: string) {
  const hash = hashToken(token);
  const byAccess = await findConnectionByAccessToken(ctx.store.db, hash, integration.id);
  if (byAccess) return { connection: byAccess as ConnectionRow, issued: byAccess.access_issued_time };
  const refresh = await findLiveRefreshToken(ctx.store.db, hash, integration.id);
  const connection = refresh ? await findConnection(ctx.store.db, refresh.connection_id) : undefined;
  return connection && refresh ? { connection, issued: refresh.created_time } : null;
}

/** POST /v1/oauth/introspect: whether a token of this integration is live, its capabilities and when it was issued. */
export async function introspectToken(ctx: AppContext, authorization: string | undefined, rawBody: unknown) {
  const integration = await authenticateClient(ctx, authorization);
  const token = requiredText(bodyOf(rawBody), 'token');
  const found = await connectionOfToken(ctx, integration, token);
  if (!found) return { active: false as const };
  const scope = [...(JSON.parse(found.connection.capabilities) as string[]), found.connection.user_info].join(' ');
  return { active: true as const, scope, iat: Math.floor(Date.parse(found.issued) / 1000) };
}

/**
 * POST /v1/oauth/revoke: ends the connection the token belongs to (access or refresh token), at
 * once: the connection row changes, which every instance's token check reads (SQLite's caller
 * cache sees the store's write stamp move, src/storage/callerLookup.ts; PostgreSQL is read per
 * request). A token that is not live is already revoked (RFC 7009 §2.2).
 */
export async function revokeToken(ctx: AppContext, authorization: string | undefined, rawBody: unknown): Promise<void> {
  const integration = await authenticateClient(ctx, authorization);
  const token = requiredText(bodyOf(rawBody), 'token');
  const found = await connectionOfToken(ctx, integration, token);
  if (!found) return;
  const at = ctx.clock.now().toISOString();
  await ctx.store.transaction(async (trx) => {
    await revokeRefreshTokensOf(trx, found.connection.id, at);
    await revokeConnection(trx, found.connection.id, at);
  });
}

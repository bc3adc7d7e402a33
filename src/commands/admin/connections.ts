import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors/registry.js';
import { invalidField, invalidFieldBare } from '../../errors/validationFailure.js';
import { newId } from '../../ids/ids.js';
import { generateToken, hashToken } from '../../auth/tokens.js';
import { CONTENT_CAPABILITIES, USER_INFO_LEVELS, type Capability, type ConnectionKind, type UserInfoLevel } from '../../auth/capabilities.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findUser, insertUser, renameUser } from '../../storage/repositories/users.js';
import { findConnection, insertConnection, listConnections, revokeConnection, updateConnection } from '../../storage/repositories/connections.js';
import { deleteGrant, insertGrant, listGrants } from '../../storage/repositories/grants.js';
import { findObject } from '../../storage/repositories/objects.js';
import type { AdminListOptions, UpdateConnectionInput } from '../../schemas/admin.js';
import type { ConnectionRow } from '../../storage/schema.js';
import { adminListPage } from './adminListPage.js';
import { adminNotFound } from './adminNotFound.js';
import { checkCreditAmount } from '../../domain/credits.js';

export interface CreateConnectionInput {
  name: string;
  kind: ConnectionKind;
  capabilities: string[];
  user_id?: string;
}

/** Splits the capability list into content/comment capabilities and the one user-information level. */
export function splitCapabilities(list: readonly string[]): { content: Capability[]; userInfo: UserInfoLevel } {
  const levels = list.filter((c): c is UserInfoLevel => (USER_INFO_LEVELS as readonly string[]).includes(c));
  if (levels.length > 1) throw invalidFieldBare(['capabilities'], 'should name at most one user information level', levels);
  const content = [...new Set(list.filter((c): c is Capability => (CONTENT_CAPABILITIES as readonly string[]).includes(c)))];
  return { content, userInfo: levels[0] ?? 'user_info_without_email' };
}

export async function createConnection(ctx: AppContext, workspaceId: string, input: CreateConnectionInput) {
  const workspace = await findWorkspace(ctx.store.db, workspaceId);
  if (!workspace) throw adminNotFound('workspace', workspaceId);
  if (input.kind === 'internal' && input.user_id !== undefined) {
    throw invalidFieldBare(['user_id'], 'should be not present for an internal connection', input.user_id);
  }
  if (input.kind !== 'internal') {
    if (input.user_id === undefined) throw invalidField(['user_id'], `should be defined for a ${input.kind} connection`, undefined);
    const user = await findUser(ctx.store.db, workspaceId, input.user_id);
    if (!user || user.type !== 'person') throw invalidFieldBare(['user_id'], 'should be a person in this workspace', input.user_id);
  }
  const { content, userInfo } = splitCapabilities(input.capabilities);
  const token = generateToken();
  const at = ctx.clock.now().toISOString();
  const row: ConnectionRow = {
    id: newId(),
    workspace_id: workspaceId,
    name: input.name,
    kind: input.kind,
    capabilities: JSON.stringify(content),
    user_info: userInfo,
    user_id: input.user_id ?? null,
    bot_id: newId(),
    token_hash: hashToken(token),
    created_time: at,
    revoked_time: null,
    ai_credit_limit: null,
    ai_credits_used: 0,
  };
  await ctx.store.transaction(async (trx) => {
    await insertUser(trx, {
      id: row.bot_id,
      workspace_id: workspaceId,
      type: 'bot',
      name: input.name,
      avatar_url: null,
      email: null,
      email_verified: 0,
      meeting_notes_enabled: 0,
      created_time: at,
    });
    await insertConnection(trx, row);
  });
  // The token leaves the server here once and never again: only its hash is stored.
  return { row, token };
}

export async function listConnectionsOf(ctx: AppContext, workspaceId: string, options: AdminListOptions) {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  return adminListPage(
    'admin-connections',
    options,
    (after, limit) => listConnections(ctx.store.db, workspaceId, after, limit),
    (row) => row.id,
  );
}

export async function getConnection(ctx: AppContext, connectionId: string) {
  const row = await findConnection(ctx.store.db, connectionId);
  if (!row) throw adminNotFound('connection', connectionId);
  return row;
}

/** Renames a connection (and its bot user, whom `users/me` shows) or replaces its capabilities. */
export async function changeConnection(ctx: AppContext, connectionId: string, input: UpdateConnectionInput) {
  const split = input.capabilities === undefined ? null : splitCapabilities(input.capabilities);
  const creditLimit = input.ai_credit_limit === undefined ? undefined : checkCreditAmount('ai_credit_limit', input.ai_credit_limit);
  const row = await ctx.store.transaction(async (trx) => {
    const changed = await updateConnection(trx, connectionId, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(split === null ? {} : { capabilities: JSON.stringify(split.content), user_info: split.userInfo }),
      ...(creditLimit === undefined ? {} : { ai_credit_limit: creditLimit }),
    });
    if (!changed) throw adminNotFound('connection', connectionId);
    const updated = await findConnection(trx, connectionId);
    if (!updated) throw adminNotFound('connection', connectionId);
    if (input.name !== undefined) await renameUser(trx, updated.bot_id, input.name);
    return updated;
  });
  return row;
}

/** A new token for the connection; the old one fails from the next request on every instance. */
export async function rotateConnectionToken(ctx: AppContext, connectionId: string) {
  const token = generateToken();
  if (!(await updateConnection(ctx.store.db, connectionId, { token_hash: hashToken(token) }))) throw adminNotFound('connection', connectionId);
  const row = await findConnection(ctx.store.db, connectionId);
  if (!row) throw adminNotFound('connection', connectionId);
  // Shown once, like at creation: only the hash is stored.
  return { row, token };
}

export async function deleteConnection(ctx: AppContext, connectionId: string): Promise<void> {
  if (!(await revokeConnection(ctx.store.db, connectionId, ctx.clock.now().toISOString()))) throw adminNotFound('connection', connectionId);
}

export async function listGrantsOf(ctx: AppContext, connectionId: string, options: AdminListOptions) {
  if (!(await findConnection(ctx.store.db, connectionId))) throw adminNotFound('connection', connectionId);
  return adminListPage(
    'admin-grants',
    options,
    (after, limit) => listGrants(ctx.store.db, connectionId, after, limit),
    (row) => row.object_id,
  );
}

export async function grantAccess(ctx: AppContext, connectionId: string, objectId: string): Promise<void> {
  const connection = await findConnection(ctx.store.db, connectionId);
  if (!connection) throw adminNotFound('connection', connectionId);
  const object = await findObject(ctx.store.db, objectId);
  if (!object || object.workspace_id !== connection.workspace_id) throw adminNotFound('page', objectId);
  await insertGrant(ctx.store.db, connectionId, objectId, ctx.clock.now().toISOString());
}

export async function revokeAccess(ctx: AppContext, connectionId: string, objectId: string): Promise<void> {
  if (!(await findConnection(ctx.store.db, connectionId))) throw adminNotFound('connection', connectionId);
  if (!(await deleteGrant(ctx.store.db, connectionId, objectId)))
    throw new ApiError('object_not_found', `Connection ${connectionId} has no grant on ${objectId}.`);
}

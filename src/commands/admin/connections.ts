import type { AppContext } from '../../context.js';
import { ApiError, notFound, validationError } from '../../errors/registry.js';
import { newId, nowIso } from '../../http/ids.js';
import { generateToken, hashToken } from '../../auth/tokens.js';
import { CONTENT_CAPABILITIES, USER_INFO_LEVELS, type Capability, type ConnectionKind, type UserInfoLevel } from '../../auth/capabilities.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findUser, insertUser } from '../../storage/repositories/users.js';
import { findConnection, insertConnection, revokeConnection } from '../../storage/repositories/connections.js';
import { deleteGrant, insertGrant } from '../../storage/repositories/grants.js';
import { findObject } from '../../storage/repositories/objects.js';

export interface CreateConnectionInput {
  name: string;
  kind: ConnectionKind;
  capabilities: string[];
  user_id?: string;
}

/** Splits the capability list into content/comment capabilities and the one user-information level. */
function splitCapabilities(list: readonly string[]): { content: Capability[]; userInfo: UserInfoLevel } {
  const levels = list.filter((c): c is UserInfoLevel => (USER_INFO_LEVELS as readonly string[]).includes(c));
  if (levels.length > 1)
    throw validationError(
      'body failed validation: body.capabilities should name at most one user information level, instead was ' + JSON.stringify(levels) + '.',
    );
  const content = [...new Set(list.filter((c): c is Capability => (CONTENT_CAPABILITIES as readonly string[]).includes(c)))];
  return { content, userInfo: levels[0] ?? 'user_info_without_email' };
}

export async function createConnection(ctx: AppContext, workspaceId: string, input: CreateConnectionInput) {
  const workspace = await findWorkspace(ctx.store.db, workspaceId);
  if (!workspace) throw notFound('workspace', workspaceId);
  if (input.kind === 'internal' && input.user_id !== undefined) {
    throw validationError(
      'body failed validation: body.user_id should be not present for an internal connection, instead was ' + JSON.stringify(input.user_id) + '.',
    );
  }
  if (input.kind !== 'internal') {
    if (input.user_id === undefined)
      throw validationError(`body failed validation: body.user_id should be defined for a ${input.kind} connection, instead was \`undefined\`.`);
    const user = await findUser(ctx.store.db, workspaceId, input.user_id);
    if (!user || user.type !== 'person')
      throw validationError(`body failed validation: body.user_id should be a person in this workspace, instead was ${JSON.stringify(input.user_id)}.`);
  }
  const { content, userInfo } = splitCapabilities(input.capabilities);
  const token = generateToken();
  const id = newId();
  const botId = newId();
  const at = nowIso();
  await ctx.store.transaction(async (trx) => {
    await insertUser(trx, {
      id: botId,
      workspace_id: workspaceId,
      type: 'bot',
      name: input.name,
      avatar_url: null,
      email: null,
      email_verified: 0,
      meeting_notes_enabled: 0,
      created_time: at,
    });
    await insertConnection(trx, {
      id,
      workspace_id: workspaceId,
      name: input.name,
      kind: input.kind,
      capabilities: JSON.stringify(content),
      user_info: userInfo,
      user_id: input.user_id ?? null,
      bot_id: botId,
      token_hash: hashToken(token),
      created_time: at,
      revoked_time: null,
    });
  });
  // The token is returned here once and never again: only its hash is stored.
  return {
    object: 'connection',
    id,
    name: input.name,
    kind: input.kind,
    capabilities: [...content, userInfo],
    workspace_id: workspaceId,
    user_id: input.user_id ?? null,
    bot_id: botId,
    token,
  };
}

export async function deleteConnection(ctx: AppContext, connectionId: string) {
  if (!(await revokeConnection(ctx.store.db, connectionId, nowIso()))) throw notFound('connection', connectionId);
  return { object: 'connection', id: connectionId, deleted: true };
}

export async function grantAccess(ctx: AppContext, connectionId: string, objectId: string) {
  const connection = await findConnection(ctx.store.db, connectionId);
  if (!connection) throw notFound('connection', connectionId);
  const object = await findObject(ctx.store.db, objectId);
  if (!object || object.workspace_id !== connection.workspace_id) throw notFound('page', objectId);
  await insertGrant(ctx.store.db, connectionId, objectId, nowIso());
  return { object: 'grant', connection_id: connectionId, object_id: objectId };
}

export async function revokeAccess(ctx: AppContext, connectionId: string, objectId: string) {
  if (!(await findConnection(ctx.store.db, connectionId))) throw notFound('connection', connectionId);
  if (!(await deleteGrant(ctx.store.db, connectionId, objectId)))
    throw new ApiError('object_not_found', `Connection ${connectionId} has no grant on ${objectId}.`);
  return { object: 'grant', connection_id: connectionId, object_id: objectId, deleted: true };
}

import type { AppContext } from '../context.js';
import type { Caller } from '../auth/capabilities.js';
import type { UserRow } from '../storage/schema.js';
import type { ListView, UserView } from '../domain/views.js';
import { ApiError, notFound } from '../errors/registry.js';
import { decodeCursor, encodeCursor } from '../ids/cursor.js';
import { findUser, listUsers } from '../storage/repositories/users.js';
import { findWorkspace } from '../storage/repositories/workspaces.js';

/**
 * GET /v1/users/me: the connection's bot user with its owner and workspace, at any capability
 * level. The caller's rows usually came with authentication, and then no promise is made.
 */
export function getMe(ctx: AppContext, caller: Caller): UserView | Promise<UserView> {
  if (caller.rows) {
    const { bot, workspace, owner } = caller.rows;
    return { user: bot, bot: { workspace, owner, maxFileUploadBytes: workspace.max_file_upload_bytes ?? ctx.config.maxFileUploadBytes } };
  }
  return loadMe(ctx, caller);
}

async function loadMe(ctx: AppContext, caller: Caller): Promise<UserView> {
  const db = ctx.store.db;
  const [bot, workspace, owner] = await Promise.all([
    findUser(db, caller.workspaceId, caller.botId),
    findWorkspace(db, caller.workspaceId),
    caller.userId ? findUser(db, caller.workspaceId, caller.userId) : Promise.resolve(undefined),
  ]);
  if (!bot || !workspace) throw new ApiError('internal_server_error');
  return { user: bot, bot: { workspace, owner: owner ?? null, maxFileUploadBytes: workspace.max_file_upload_bytes ?? ctx.config.maxFileUploadBytes } };
}

function requireUserInfo(caller: Caller): void {
  if (caller.userInfo === 'no_user_info') {
    throw new ApiError('restricted_resource', 'API token does not have access to user information.');
  }
}

export async function retrieveUser(ctx: AppContext, caller: Caller, userId: string, rawId: string): Promise<UserView> {
  requireUserInfo(caller);
  const row = await findUser(ctx.store.db, caller.workspaceId, userId);
  if (!row) throw notFound('user', rawId);
  if (row.id === caller.botId) return getMe(ctx, caller);
  return { user: row };
}

export async function listWorkspaceUsers(ctx: AppContext, caller: Caller, startCursor: string | undefined, pageSize: number): Promise<ListView<UserRow>> {
  requireUserInfo(caller);
  const after = startCursor ? String(decodeCursor('users', startCursor, 'start_cursor', 'query')[0]) : null;
  const rows = await listUsers(ctx.store.db, caller.workspaceId, after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const next = rows.length > pageSize ? encodeCursor('users', [page[page.length - 1].id]) : null;
  return { items: page, nextCursor: next };
}

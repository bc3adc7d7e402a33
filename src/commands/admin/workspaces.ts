import type { AppContext } from '../../context.js';
import { newId } from '../../ids/ids.js';
import { deleteWorkspaceTree, findWorkspace, insertWorkspace, listWorkspaces, updateWorkspaceRow } from '../../storage/repositories/workspaces.js';
import { insertUser } from '../../storage/repositories/users.js';
import { listCustomEmojis } from '../../storage/repositories/customEmojis.js';
import type { AdminListOptions, UpdateWorkspaceInput } from '../../schemas/admin.js';
import { checkCreditAmount } from '../../domain/credits.js';
import { adminListPage } from './adminListPage.js';
import { adminNotFound } from './adminNotFound.js';

export async function createWorkspace(ctx: AppContext, input: { name: string }) {
  const row = {
    id: newId(),
    name: input.name,
    system_user_id: newId(),
    created_time: ctx.clock.now().toISOString(),
    max_file_upload_bytes: null,
    meeting_notes_enabled: 1,
    ai_credits: null,
  };
  await ctx.store.transaction(async (trx) => {
    await insertWorkspace(trx, row);
    // The workspace's internal actor (schema.ts); listings never show it.
    await insertUser(trx, {
      id: row.system_user_id,
      workspace_id: row.id,
      type: 'bot',
      name: 'Folio',
      avatar_url: null,
      email: null,
      email_verified: 0,
      meeting_notes_enabled: 0,
      created_time: row.created_time,
    });
  });
  return row;
}

export async function listAllWorkspaces(ctx: AppContext, options: AdminListOptions) {
  return adminListPage(
    'admin-workspaces',
    options,
    (after, limit) => listWorkspaces(ctx.store.db, after, limit),
    (row) => row.id,
  );
}

export async function getWorkspace(ctx: AppContext, workspaceId: string) {
  const row = await findWorkspace(ctx.store.db, workspaceId);
  if (!row) throw adminNotFound('workspace', workspaceId);
  return row;
}

/**
 * Renames a workspace, sets its per-file upload limit (null: back to the server's default), which
 * its bots report as `workspace_limits.max_file_upload_size_in_bytes` and uploads obey, turns AI
 * meeting notes on or off, or sets its AI credits (null: no limit).
 */
export async function updateWorkspace(ctx: AppContext, workspaceId: string, input: UpdateWorkspaceInput) {
  const credits = input.ai_credits === undefined ? undefined : checkCreditAmount('ai_credits', input.ai_credits);
  return ctx.store.transaction(async (trx) => {
    const row = await findWorkspace(trx, workspaceId);
    if (!row) throw adminNotFound('workspace', workspaceId);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.max_file_upload_size_in_bytes !== undefined ? { max_file_upload_bytes: input.max_file_upload_size_in_bytes } : {}),
      ...(input.meeting_notes_enabled !== undefined ? { meeting_notes_enabled: input.meeting_notes_enabled ? 1 : 0 } : {}),
      ...(credits !== undefined ? { ai_credits: credits } : {}),
    };
    if (Object.keys(changes).length > 0) await updateWorkspaceRow(trx, workspaceId, changes);
    return { ...row, ...changes };
  });
}

/**
 * Deletes the workspace with all its users, connections, grants and content, in one transaction;
 * then its custom emojis' images, which live in the file store, not the database.
 */
export async function deleteWorkspace(ctx: AppContext, workspaceId: string): Promise<void> {
  const emojis = await listCustomEmojis(ctx.store.db, workspaceId, { after: null, limit: Number.MAX_SAFE_INTEGER });
  if (!(await ctx.store.transaction((trx) => deleteWorkspaceTree(trx, workspaceId)))) throw adminNotFound('workspace', workspaceId);
  if (emojis.length > 0) await ctx.files.delete(emojis.map((e) => e.file_key));
}

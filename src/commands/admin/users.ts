import type { AppContext } from '../../context.js';
import { invalidFieldBare } from '../../errors/validationFailure.js';
import { newId } from '../../ids/ids.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { deletePersonTree, findUser, insertUser, listUsers, setUserMeetingNotes } from '../../storage/repositories/users.js';
import { countConnectionsActingFor } from '../../storage/repositories/connections.js';
import type { AdminListOptions, UpdateUserInput } from '../../schemas/admin.js';
import { adminListPage } from './adminListPage.js';
import { adminNotFound } from './adminNotFound.js';

export interface CreateUserInput {
  name: string;
  email: string;
  meeting_notes_enabled?: boolean;
  avatar_url?: string | null;
  email_verified?: boolean;
}

export async function createPerson(ctx: AppContext, workspaceId: string, input: CreateUserInput) {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  const row = {
    id: newId(),
    workspace_id: workspaceId,
    type: 'person' as const,
    name: input.name,
    avatar_url: input.avatar_url ?? null,
    email: input.email,
    email_verified: input.email_verified === false ? 0 : 1,
    // On unless the operator says otherwise (issue 14): a self-hosted server's users have the feature.
    meeting_notes_enabled: input.meeting_notes_enabled === false ? 0 : 1,
    created_time: ctx.clock.now().toISOString(),
  };
  await insertUser(ctx.store.db, row);
  return row;
}

/** Every person and connection bot of the workspace, e-mail included. */
export async function listUsersOf(ctx: AppContext, workspaceId: string, options: AdminListOptions) {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  return adminListPage(
    'admin-users',
    options,
    (after, limit) => listUsers(ctx.store.db, workspaceId, after, limit),
    (row) => row.id,
  );
}

/**
 * Deletes a person. A person that a live connection acts for is refused: deleting them would
 * silently cut that connection off, so the operator revokes it first (docs/decisions.md). Pages
 * they created keep their `created_by` id, as the service does for people who left.
 */
export async function deletePerson(ctx: AppContext, workspaceId: string, userId: string): Promise<void> {
  const user = await findUser(ctx.store.db, workspaceId, userId);
  if (!user) throw adminNotFound('user', userId);
  if (user.type !== 'person') throw invalidFieldBare(['user_id'], 'should be a person (a bot goes with its connection)', userId, 'path');
  await ctx.store.transaction(async (trx) => {
    // Checked inside the transaction, so a connection created meanwhile cannot be orphaned.
    const acting = await countConnectionsActingFor(trx, userId);
    if (acting > 0)
      throw invalidFieldBare(
        ['user_id'],
        `should be a person no connection acts for (revoke its ${acting} connection${acting === 1 ? '' : 's'} first)`,
        userId,
        'path',
      );
    await deletePersonTree(trx, userId);
  });
}

/** Turns AI meeting notes on or off for one person (what a public or personal connection acting for them may use). */
export async function updatePerson(ctx: AppContext, workspaceId: string, userId: string, input: UpdateUserInput) {
  return ctx.store.transaction(async (trx) => {
    const user = await findUser(trx, workspaceId, userId);
    if (!user || user.type !== 'person') throw adminNotFound('user', userId);
    if (input.meeting_notes_enabled === undefined) return user;
    const meeting_notes_enabled = input.meeting_notes_enabled ? 1 : 0;
    await setUserMeetingNotes(trx, user.id, meeting_notes_enabled);
    return { ...user, meeting_notes_enabled };
  });
}

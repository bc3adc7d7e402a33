import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/registry.js';
import { newId, nowIso } from '../../http/ids.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { insertUser } from '../../storage/repositories/users.js';
import { presentUser } from '../../presenters/user.js';
import type { Caller } from '../../auth/capabilities.js';

/** Operators see everything, e-mail included. */
const OPERATOR_VIEW: Caller = {
  connectionId: '',
  connectionName: 'admin',
  workspaceId: '',
  kind: 'internal',
  capabilities: new Set(),
  userInfo: 'user_info_with_email',
  userId: null,
  botId: '',
};

export interface CreateUserInput {
  name: string;
  email: string;
  meeting_notes_enabled?: boolean;
  avatar_url?: string | null;
  email_verified?: boolean;
}

export async function createPerson(ctx: AppContext, workspaceId: string, input: CreateUserInput) {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw notFound('workspace', workspaceId);
  const row = {
    id: newId(),
    workspace_id: workspaceId,
    type: 'person' as const,
    name: input.name,
    avatar_url: input.avatar_url ?? null,
    email: input.email,
    email_verified: input.email_verified === false ? 0 : 1,
    meeting_notes_enabled: input.meeting_notes_enabled ? 1 : 0,
    created_time: nowIso(),
  };
  await insertUser(ctx.store.db, row);
  return presentUser(row, OPERATOR_VIEW);
}

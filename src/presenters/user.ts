import type { Caller } from '../auth/capabilities.js';
import type { UserRow, WorkspaceRow } from '../storage/schema.js';

export interface BotContext {
  workspace: WorkspaceRow;
  /** The person a public or personal connection acts for; null for internal connections. */
  owner: UserRow | null;
  maxFileUploadBytes: number;
}

/** A full user object; e-mail only with the user_info_with_email capability (FACTS.md §2). */
export function presentUser(row: UserRow, caller: Caller, bot?: BotContext): Record<string, unknown> {
  const base = { object: 'user', id: row.id, name: row.name, avatar_url: row.avatar_url, type: row.type };
  if (row.type === 'person') {
    const person = caller.userInfo === 'user_info_with_email' && row.email !== null ? { email: row.email, email_verified: row.email_verified === 1 } : {};
    return { ...base, person };
  }
  if (!bot) return { ...base, bot: {} };
  const owner = bot.owner ? { type: 'user', user: presentUser(bot.owner, caller) } : { type: 'workspace', workspace: true };
  return {
    ...base,
    bot: {
      owner,
      workspace_id: bot.workspace.id,
      workspace_name: bot.workspace.name,
      workspace_limits: { max_file_upload_size_in_bytes: bot.maxFileUploadBytes },
    },
  };
}

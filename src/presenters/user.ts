import type { Caller } from '../auth/capabilities.js';
import type { UserRow } from '../storage/schema.js';
import type { BotView, ListView, UserView } from '../domain/views.js';
import { listPage } from '../ids/listPage.js';

/** A full user object; e-mail only with the user_info_with_email capability (FACTS.md §2). */
export function presentUser(row: UserRow, caller: Caller, bot?: BotView): Record<string, unknown> {
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

export function presentUserView(view: UserView, caller: Caller): Record<string, unknown> {
  return presentUser(view.user, caller, view.bot);
}

export function presentUserList(list: ListView<UserRow>, caller: Caller) {
  return listPage(
    'user',
    list.items.map((row) => presentUser(row, caller)),
    list.nextCursor,
  );
}

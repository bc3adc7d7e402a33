import type { Caller } from '../auth/capabilities.js';
import type { UserRow } from '../storage/schema.js';
import type { BotView, ListView, UserView } from '../domain/views.js';
import type { Static } from 'typebox';
import type { UserListResponse, UserObject } from '../schemas/users.js';
import { presentList } from './list.js';

type UserJson = Static<typeof UserObject>;

/**
 * A full user object; e-mail only with the user_info_with_email capability (FACTS.md §2). Written
 * as whole literals: on Node 20, `{ ...base, type }` costs about a microsecond per object, forty
 * times a literal (docs/benchmarks.md, "Object spread followed by properties").
 */
export function presentUser(row: UserRow, caller: Caller, bot?: BotView): UserJson {
  if (row.type === 'person') {
    const person = caller.userInfo === 'user_info_with_email' && row.email !== null ? { email: row.email, email_verified: row.email_verified === 1 } : {};
    return { object: 'user', id: row.id, name: row.name, avatar_url: row.avatar_url, type: 'person', person };
  }
  if (!bot) return { object: 'user', id: row.id, name: row.name, avatar_url: row.avatar_url, type: 'bot', bot: {} };
  const owner = bot.owner ? { type: 'user' as const, user: presentUser(bot.owner, caller) } : { type: 'workspace' as const, workspace: true as const };
  return {
    object: 'user',
    id: row.id,
    name: row.name,
    avatar_url: row.avatar_url,
    type: 'bot',
    bot: {
      owner,
      workspace_id: bot.workspace.id,
      workspace_name: bot.workspace.name,
      workspace_limits: { max_file_upload_size_in_bytes: bot.maxFileUploadBytes },
    },
  };
}

export function presentUserView(view: UserView, caller: Caller): UserJson {
  return presentUser(view.user, caller, view.bot);
}

export function presentUserList(list: ListView<UserRow>, caller: Caller): Static<typeof UserListResponse> {
  return presentList(
    'user',
    list.items.map((row) => presentUser(row, caller)),
    list.nextCursor,
  );
}

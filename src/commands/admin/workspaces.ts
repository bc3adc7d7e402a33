import type { AppContext } from '../../context.js';
import { newId, nowIso } from '../../http/ids.js';
import { insertWorkspace } from '../../storage/repositories/workspaces.js';
import { insertUser } from '../../storage/repositories/users.js';

export async function createWorkspace(ctx: AppContext, input: { name: string }) {
  const id = newId();
  const systemUserId = newId();
  const at = nowIso();
  await ctx.store.transaction(async (trx) => {
    await insertWorkspace(trx, { id, name: input.name, system_user_id: systemUserId, created_time: at });
    await insertUser(trx, {
      id: systemUserId,
      workspace_id: id,
      type: 'bot',
      name: 'Folio',
      avatar_url: null,
      email: null,
      email_verified: 0,
      meeting_notes_enabled: 0,
      created_time: at,
    });
  });
  return { object: 'workspace', id, name: input.name };
}

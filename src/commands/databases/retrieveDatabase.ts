import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { presentDatabaseRow } from './presentDatabaseRow.js';

export async function retrieveDatabase(ctx: AppContext, caller: Caller, databaseId: string, rawId: string) {
  const row = await loadVisibleObject(ctx.store.db, caller, databaseId, ['database'], 'database', rawId);
  return presentDatabaseRow(ctx.store.db, row, ctx.config.publicUrl);
}

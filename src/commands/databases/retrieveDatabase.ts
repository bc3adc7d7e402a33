import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import type { DatabaseView } from '../../domain/views.js';
import { loadDatabaseView } from './loadDatabaseView.js';

export async function retrieveDatabase(ctx: AppContext, caller: Caller, databaseId: string, rawId: string): Promise<DatabaseView> {
  const row = await loadVisibleObject(ctx.store.db, caller, databaseId, ['database'], 'database', rawId);
  return loadDatabaseView(ctx.store.db, row);
}

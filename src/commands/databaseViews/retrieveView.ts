import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { DatabaseViewRow } from '../../storage/schema.js';
import { loadVisibleView } from './viewAccess.js';

/** GET /v1/views/{view_id}. */
export async function retrieveView(ctx: AppContext, caller: Caller, viewId: string, rawId: string): Promise<DatabaseViewRow> {
  return loadVisibleView(ctx.store.db, caller, viewId, rawId);
}

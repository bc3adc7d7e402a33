import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { presentPageRow } from './presentPageRow.js';

/** GET /v1/pages/{id}: any visible page, trashed ones included (they show in_trash: true). */
export async function retrievePage(ctx: AppContext, caller: Caller, pageId: string, rawId: string, filterProperties?: readonly string[]) {
  const row = await loadVisibleObject(ctx.store.db, caller, pageId, ['page'], 'page', rawId);
  return presentPageRow(ctx.store.db, row, { baseUrl: ctx.config.publicUrl, filterProperties });
}

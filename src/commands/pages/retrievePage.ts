import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import type { PageView } from '../../domain/views.js';
import { loadPageView } from './loadPageView.js';

/** GET /v1/pages/{id}: any visible page, trashed ones included (they show in_trash: true). */
export async function retrievePage(ctx: AppContext, caller: Caller, pageId: string, rawId: string): Promise<PageView> {
  const row = await loadVisibleObject(ctx.store.db, caller, pageId, ['page'], 'page', rawId);
  return loadPageView(ctx.store.db, row, ctx.clock.now());
}

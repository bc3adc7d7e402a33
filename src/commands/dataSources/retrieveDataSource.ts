import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { presentDataSourceRow } from './presentDataSourceRow.js';

export async function retrieveDataSource(ctx: AppContext, caller: Caller, dataSourceId: string, rawId: string) {
  const row = await loadVisibleObject(ctx.store.db, caller, dataSourceId, ['data_source'], 'data_source', rawId);
  return presentDataSourceRow(ctx.store.db, row, ctx.config.publicUrl);
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import type { DataSourceView } from '../../domain/views.js';
import { loadDataSourceView } from './loadDataSourceView.js';

export async function retrieveDataSource(ctx: AppContext, caller: Caller, dataSourceId: string, rawId: string): Promise<DataSourceView> {
  const row = await loadVisibleObject(ctx.store.db, caller, dataSourceId, ['data_source'], 'data_source', rawId);
  return loadDataSourceView(ctx.store.db, row);
}

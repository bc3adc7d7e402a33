import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import type { QueryView } from '../../domain/views.js';
import type { QueryRequest } from '../../schemas/query.js';
import { queryPages } from './queryPages.js';

/** POST /v1/data_sources/{id}/query (2025-09-03 and later). */
export async function queryDataSource(ctx: AppContext, caller: Caller, dataSourceId: string, rawId: string, body: QueryRequest): Promise<QueryView> {
  return ctx.store.transaction(async (trx) => {
    const source = await loadVisibleObject(trx, caller, dataSourceId, ['data_source'], 'data_source', rawId);
    return queryPages(ctx, trx, caller, source, body);
  });
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { notFound } from '../../errors/registry.js';
import type { QueryView } from '../../domain/views.js';
import type { QueryRequest } from '../../schemas/query.js';
import { listDataSourcesOf } from '../../storage/repositories/objects.js';
import { queryPages } from './queryPages.js';

/**
 * POST /v1/databases/{id}/query (up to 2022-06-28): the database's first data source, the one
 * whose schema the old database object shows (docs/decisions.md).
 */
export async function queryDatabase(ctx: AppContext, caller: Caller, databaseId: string, rawId: string, body: QueryRequest): Promise<QueryView> {
  return ctx.store.transaction(async (trx) => {
    const database = await loadVisibleObject(trx, caller, databaseId, ['database'], 'database', rawId);
    const [source] = await listDataSourcesOf(trx, database.id);
    if (!source) throw notFound('database', rawId);
    return queryPages(ctx, trx, caller, source, body);
  });
}

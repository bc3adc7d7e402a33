import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../http/ids.js';
import { CreateDataSourceBody, DataSourceParams, UpdateDataSourceBody } from '../../schemas/dataSources.js';
import { createDataSource } from '../../commands/dataSources/createDataSource.js';
import { retrieveDataSource } from '../../commands/dataSources/retrieveDataSource.js';
import { updateDataSource } from '../../commands/dataSources/updateDataSource.js';

export function registerDataSourcesRoutes(app: App, ctx: AppContext): void {
  app.post('/v1/data_sources', { config: { capability: 'insert_content' }, schema: { body: CreateDataSourceBody } }, async (request) =>
    createDataSource(ctx, request.caller!, request.body),
  );

  app.get('/v1/data_sources/:data_source_id', { config: { capability: 'read_content' }, schema: { params: DataSourceParams } }, async (request) => {
    const raw = request.params.data_source_id;
    return retrieveDataSource(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw);
  });

  app.patch(
    '/v1/data_sources/:data_source_id',
    { config: { capability: 'update_content' }, schema: { params: DataSourceParams, body: UpdateDataSourceBody } },
    async (request) => {
      const raw = request.params.data_source_id;
      return updateDataSource(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw, request.body ?? {});
    },
  );
}

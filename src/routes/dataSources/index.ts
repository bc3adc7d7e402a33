import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { DataSourceResponse, WrittenDataSourceResponse } from '../../schemas/responses.js';
import { parseIdParam } from '../../http/ids.js';
import { CreateDataSourceBody, DataSourceParams, UpdateDataSourceBody } from '../../schemas/dataSources.js';
import { createDataSource } from '../../commands/dataSources/createDataSource.js';
import { retrieveDataSource } from '../../commands/dataSources/retrieveDataSource.js';
import { updateDataSource } from '../../commands/dataSources/updateDataSource.js';
import { presentDataSource, presentWrittenDataSource } from '../../presenters/dataSource.js';

export function registerDataSourcesRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/data_sources',
    { config: { capability: 'insert_content', response: WrittenDataSourceResponse }, schema: { body: CreateDataSourceBody } },
    async (request) => presentWrittenDataSource(await createDataSource(ctx, request.caller!, request.body), { baseUrl: ctx.config.publicUrl }),
  );

  app.get(
    '/v1/data_sources/:data_source_id',
    { config: { capability: 'read_content', response: DataSourceResponse }, schema: { params: DataSourceParams } },
    async (request) => {
      const raw = request.params.data_source_id;
      return presentDataSource(await retrieveDataSource(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw), { baseUrl: ctx.config.publicUrl });
    },
  );

  app.patch(
    '/v1/data_sources/:data_source_id',
    { config: { capability: 'update_content', response: DataSourceResponse }, schema: { params: DataSourceParams, body: UpdateDataSourceBody } },
    async (request) => {
      const raw = request.params.data_source_id;
      return presentDataSource(await updateDataSource(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw, request.body ?? {}), {
        baseUrl: ctx.config.publicUrl,
      });
    },
  );
}

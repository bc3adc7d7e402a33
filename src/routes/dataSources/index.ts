import { keptAnswer } from '../../http/keptAnswers.js';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { DataSourceQueryParams, QueryBody, QueryResponse } from '../../schemas/query.js';
import { FilterPropertiesQuery } from '../../schemas/pages.js';
import { queryDataSource } from '../../commands/query/queryDataSource.js';
import { presentQueryResults } from '../../presenters/objects.js';
import { JsonSplice } from '../../presenters/jsonSplice.js';
import { isNewestVersion } from '../../versioning/versions.js';
import { parseIdParam } from '../../ids/ids.js';
import { CreateDataSourceBody, DataSourceParams, DataSourceResponse, UpdateDataSourceBody, WrittenDataSourceResponse } from '../../schemas/dataSources.js';
import { createDataSource } from '../../commands/dataSources/createDataSource.js';
import { retrieveDataSource } from '../../commands/dataSources/retrieveDataSource.js';
import { updateDataSource } from '../../commands/dataSources/updateDataSource.js';
import { presentDataSource, presentWrittenDataSource } from '../../presenters/dataSource.js';
import { TemplateListQuery, TemplateListResponse } from '../../schemas/templates.js';
import { listTemplates } from '../../commands/templates/listTemplates.js';
import { presentTemplateList } from '../../presenters/template.js';

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

  app.post(
    '/v1/data_sources/:data_source_id/query',
    {
      config: { capability: 'read_content', response: QueryResponse },
      schema: { params: DataSourceQueryParams, querystring: FilterPropertiesQuery, body: QueryBody },
      // Every field is optional, so no body at all is the query for every page.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) => {
      const kept = await keptAnswer(ctx.answers, request, reply);
      if (kept.sent) return kept.sent;
      const raw = request.params.data_source_id;
      const found = await queryDataSource(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw, request.body);
      if (!found.readsClock) kept.keep();
      const options = { baseUrl: ctx.config.publicUrl, filterProperties: request.query.filter_properties };
      if (!isNewestVersion(request.apiVersion) || options.filterProperties) return presentQueryResults(found, options);
      // At the newest version stored values go out as stored, as search sends them (presenters/jsonSplice.ts).
      const splice = new JsonSplice();
      return reply.type('application/json; charset=utf-8').send(splice.toBuffer(presentQueryResults(found, { ...options, splice })));
    },
  );

  app.get(
    '/v1/data_sources/:data_source_id/templates',
    { config: { capability: 'read_content', response: TemplateListResponse }, schema: { params: DataSourceParams, querystring: TemplateListQuery } },
    async (request) => {
      const raw = request.params.data_source_id;
      return presentTemplateList(await listTemplates(ctx, request.caller!, parseIdParam(raw, 'data_source_id'), raw, request.query));
    },
  );
}

import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../http/ids.js';
import { CreatePageBody, FilterPropertiesQuery, PageParams, PagePropertyParams, PropertyItemQuery, UpdatePageBody } from '../../schemas/pages.js';
import { createPage } from '../../commands/pages/createPage.js';
import { retrievePage } from '../../commands/pages/retrievePage.js';
import { updatePage } from '../../commands/pages/updatePage.js';
import { retrievePageProperty } from '../../commands/pages/retrievePageProperty.js';

export function registerPagesRoutes(app: App, ctx: AppContext): void {
  app.post('/v1/pages', { config: { capability: 'insert_content' }, schema: { body: CreatePageBody, querystring: FilterPropertiesQuery } }, async (request) =>
    createPage(ctx, request.caller!, request.body, request.query.filter_properties),
  );

  app.get(
    '/v1/pages/:page_id',
    { config: { capability: 'read_content' }, schema: { params: PageParams, querystring: FilterPropertiesQuery } },
    async (request) => {
      const raw = request.params.page_id;
      return retrievePage(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.query.filter_properties);
    },
  );

  app.patch(
    '/v1/pages/:page_id',
    { config: { capability: 'update_content' }, schema: { params: PageParams, body: UpdatePageBody, querystring: FilterPropertiesQuery } },
    async (request) => {
      const raw = request.params.page_id;
      return updatePage(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.body ?? {}, request.query.filter_properties);
    },
  );

  app.get(
    '/v1/pages/:page_id/properties/:property_id',
    { config: { capability: 'read_content' }, schema: { params: PagePropertyParams, querystring: PropertyItemQuery } },
    async (request) => {
      const raw = request.params.page_id;
      return retrievePageProperty(ctx, request.caller!, parseIdParam(raw, 'page_id'), raw, request.params.property_id, request.query);
    },
  );
}

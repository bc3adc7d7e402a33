import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../ids/ids.js';
import {
  CreateViewBody,
  CreateViewQueryBody,
  DeletedViewQueryResponse,
  ListViewsQuery,
  PartialViewObject,
  UpdateViewBody,
  ViewListResponse,
  ViewObject,
  ViewParams,
  ViewQueryParams,
  ViewQueryResponse,
  ViewQueryResultsQuery,
  ViewQueryResultsResponse,
} from '../../schemas/databaseViews.js';
import { Type } from 'typebox';
import { createView } from '../../commands/databaseViews/createView.js';
import { retrieveView } from '../../commands/databaseViews/retrieveView.js';
import { updateView } from '../../commands/databaseViews/updateView.js';
import { deleteView } from '../../commands/databaseViews/deleteView.js';
import { listViews } from '../../commands/databaseViews/listViews.js';
import { createViewQuery, deleteViewQuery, viewQueryResults } from '../../commands/databaseViews/viewQueries.js';
import {
  presentDatabaseView,
  presentDatabaseViewList,
  presentDeletedViewQuery,
  presentPartialDatabaseView,
  presentViewQuery,
  presentViewQueryResults,
} from '../../presenters/databaseView.js';

/** Views and view queries (FACTS.md §10.8); capabilities per §10.8 8.7. */
export function registerViewsRoutes(app: App, ctx: AppContext): void {
  const options = { baseUrl: ctx.config.publicUrl };

  app.get('/v1/views', { config: { capability: 'read_content', response: ViewListResponse }, schema: { querystring: ListViewsQuery } }, async (request) =>
    presentDatabaseViewList(await listViews(ctx, request.caller!, request.query)),
  );

  // Creating needs insert_content or update_content: the command checks either (viewAccess.ts).
  app.post('/v1/views', { config: { response: Type.Union([ViewObject, PartialViewObject]) }, schema: { body: CreateViewBody } }, async (request) => {
    const written = await createView(ctx, request.caller!, request.body);
    return written.readable ? presentDatabaseView(written.row, options) : presentPartialDatabaseView(written.row);
  });

  app.get('/v1/views/:view_id', { config: { capability: 'read_content', response: ViewObject }, schema: { params: ViewParams } }, async (request) => {
    const raw = request.params.view_id;
    return presentDatabaseView(await retrieveView(ctx, request.caller!, parseIdParam(raw, 'view_id'), raw), options);
  });

  app.patch(
    '/v1/views/:view_id',
    { config: { capability: 'update_content', response: ViewObject }, schema: { params: ViewParams, body: UpdateViewBody } },
    async (request) => {
      const raw = request.params.view_id;
      return presentDatabaseView(await updateView(ctx, request.caller!, parseIdParam(raw, 'view_id'), raw, request.body ?? {}), options);
    },
  );

  app.delete(
    '/v1/views/:view_id',
    { config: { capability: 'update_content', response: PartialViewObject }, schema: { params: ViewParams } },
    async (request) => {
      const raw = request.params.view_id;
      return presentPartialDatabaseView(await deleteView(ctx, request.caller!, parseIdParam(raw, 'view_id'), raw));
    },
  );

  app.post(
    '/v1/views/:view_id/queries',
    {
      config: { capability: 'read_content', response: ViewQueryResponse },
      schema: { params: ViewParams, body: CreateViewQueryBody },
      // Every field is optional, so no body at all is a query with the default page size.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request) => {
      const raw = request.params.view_id;
      return presentViewQuery(await createViewQuery(ctx, request.caller!, parseIdParam(raw, 'view_id'), raw, request.body.page_size ?? 100));
    },
  );

  app.get(
    '/v1/views/:view_id/queries/:query_id',
    { config: { capability: 'read_content', response: ViewQueryResultsResponse }, schema: { params: ViewQueryParams, querystring: ViewQueryResultsQuery } },
    async (request) => {
      const { view_id: rawViewId, query_id: rawQueryId } = request.params;
      const ids = { viewId: parseIdParam(rawViewId, 'view_id'), rawViewId, queryId: parseIdParam(rawQueryId, 'query_id'), rawQueryId };
      return presentViewQueryResults(await viewQueryResults(ctx, request.caller!, ids, request.query.start_cursor, request.query.page_size ?? 100));
    },
  );

  app.delete(
    '/v1/views/:view_id/queries/:query_id',
    { config: { capability: 'read_content', response: DeletedViewQueryResponse }, schema: { params: ViewQueryParams } },
    async (request) => {
      const { view_id: rawViewId, query_id: rawQueryId } = request.params;
      return presentDeletedViewQuery(
        await deleteViewQuery(ctx, request.caller!, parseIdParam(rawViewId, 'view_id'), rawViewId, parseIdParam(rawQueryId, 'query_id')),
      );
    },
  );
}

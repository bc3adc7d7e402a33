import { keptAnswer } from '../../http/keptAnswers.js';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { DatabaseQueryParams, QueryBody, QueryResponse } from '../../schemas/query.js';
import { FilterPropertiesQuery } from '../../schemas/pages.js';
import { queryDatabase } from '../../commands/query/queryDatabase.js';
import { presentQueryResults } from '../../presenters/objects.js';
import { parseIdParam } from '../../ids/ids.js';
import { CreateDatabaseBody, DatabaseParams, DatabaseResponse, UpdateDatabaseBody, WrittenDatabaseResponse } from '../../schemas/databases.js';
import { createDatabase } from '../../commands/databases/createDatabase.js';
import { retrieveDatabase } from '../../commands/databases/retrieveDatabase.js';
import { updateDatabase } from '../../commands/databases/updateDatabase.js';
import { presentDatabaseFacts, presentWrittenDatabase } from '../../presenters/database.js';
import { withOlderFacts } from '../../versioning/olderFacts.js';
import type { DatabaseView, Unreadable } from '../../domain/views.js';

export function registerDatabasesRoutes(app: App, ctx: AppContext): void {
  /** A database at HEAD, with what it showed before 2025-09-03 beside it for the version modules. */
  const present = (view: DatabaseView | Unreadable) =>
    withOlderFacts(presentWrittenDatabase(view, { baseUrl: ctx.config.publicUrl }), presentDatabaseFacts(view));

  app.post(
    '/v1/databases',
    { config: { capability: 'insert_content', response: WrittenDatabaseResponse }, schema: { body: CreateDatabaseBody } },
    async (request) => present(await createDatabase(ctx, request.caller!, request.body)),
  );

  app.get(
    '/v1/databases/:database_id',
    { config: { capability: 'read_content', response: DatabaseResponse }, schema: { params: DatabaseParams } },
    async (request) => {
      const raw = request.params.database_id;
      return present(await retrieveDatabase(ctx, request.caller!, parseIdParam(raw, 'database_id'), raw));
    },
  );

  app.patch(
    '/v1/databases/:database_id',
    { config: { capability: 'update_content', response: DatabaseResponse }, schema: { params: DatabaseParams, body: UpdateDatabaseBody } },
    async (request) => {
      const raw = request.params.database_id;
      return present(await updateDatabase(ctx, request.caller!, parseIdParam(raw, 'database_id'), raw, request.body ?? {}));
    },
  );

  // Only before 2025-09-03 (the 2025-09-03 change module removes it): older callers only, so the
  // answer is always walked back through the version modules.
  app.post(
    '/v1/databases/:database_id/query',
    {
      config: { capability: 'read_content', response: QueryResponse },
      schema: { params: DatabaseQueryParams, querystring: FilterPropertiesQuery, body: QueryBody },
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) => {
      const kept = await keptAnswer(ctx.answers, request, reply);
      if (kept.sent) return kept.sent;
      const raw = request.params.database_id;
      const found = await queryDatabase(ctx, request.caller!, parseIdParam(raw, 'database_id'), raw, request.body);
      if (!found.readsClock) kept.keep();
      return presentQueryResults(found, { baseUrl: ctx.config.publicUrl, filterProperties: request.query.filter_properties });
    },
  );
}

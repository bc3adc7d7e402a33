import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { parseIdParam } from '../../http/ids.js';
import { CreateDatabaseBody, DatabaseParams, UpdateDatabaseBody } from '../../schemas/databases.js';
import { createDatabase } from '../../commands/databases/createDatabase.js';
import { retrieveDatabase } from '../../commands/databases/retrieveDatabase.js';
import { updateDatabase } from '../../commands/databases/updateDatabase.js';

export function registerDatabasesRoutes(app: App, ctx: AppContext): void {
  app.post('/v1/databases', { config: { capability: 'insert_content' }, schema: { body: CreateDatabaseBody } }, async (request) =>
    createDatabase(ctx, request.caller!, request.body),
  );

  app.get('/v1/databases/:database_id', { config: { capability: 'read_content' }, schema: { params: DatabaseParams } }, async (request) => {
    const raw = request.params.database_id;
    return retrieveDatabase(ctx, request.caller!, parseIdParam(raw, 'database_id'), raw);
  });

  app.patch(
    '/v1/databases/:database_id',
    { config: { capability: 'update_content' }, schema: { params: DatabaseParams, body: UpdateDatabaseBody } },
    async (request) => {
      const raw = request.params.database_id;
      return updateDatabase(ctx, request.caller!, parseIdParam(raw, 'database_id'), raw, request.body ?? {});
    },
  );
}

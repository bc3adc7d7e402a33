import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { PaginationQuery, StrictObject } from '../../schemas/common.js';
import { getMe, listWorkspaceUsers, retrieveUser } from '../../commands/users.js';
import { parseIdParam } from '../../http/ids.js';

export function registerUserRoutes(app: App, ctx: AppContext): void {
  // Not async: getMe answers without a promise when authentication already read the rows.
  app.get('/v1/users/me', (request) => getMe(ctx, request.caller!));

  app.get('/v1/users', { schema: { querystring: PaginationQuery } }, async (request) =>
    listWorkspaceUsers(ctx, request.caller!, request.query.start_cursor, request.query.page_size ?? 100),
  );

  app.get('/v1/users/:user_id', { schema: { params: StrictObject({ user_id: Type.String() }) } }, async (request) => {
    const raw = request.params.user_id;
    return retrieveUser(ctx, request.caller!, parseIdParam(raw, 'user_id'), raw);
  });
}

import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { AdminListQuery } from '../../schemas/admin.js';
import { parseIdParam } from '../../http/ids.js';
import { deletePerson, listUsersOf } from '../../commands/admin/users.js';

/** Listing and deleting a workspace's users (creation is in index.ts). */
export function registerUserAdminRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/admin/v1/workspaces/:workspace_id/users',
    { schema: { params: StrictObject({ workspace_id: Type.String() }), querystring: AdminListQuery } },
    async (request) => listUsersOf(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), request.query),
  );

  app.delete(
    '/admin/v1/workspaces/:workspace_id/users/:user_id',
    { schema: { params: StrictObject({ workspace_id: Type.String(), user_id: Type.String() }) } },
    async (request) => deletePerson(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), parseIdParam(request.params.user_id, 'user_id')),
  );
}

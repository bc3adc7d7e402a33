import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { AdminListQuery, UpdateUserBody } from '../../schemas/admin.js';
import { presentAdminList, presentDeleted, presentOperatorUser } from '../../presenters/adminObjects.js';
import { parseIdParam } from '../../ids/ids.js';
import { deletePerson, listUsersOf, updatePerson } from '../../commands/admin/users.js';

/** Listing, updating and deleting a workspace's users (creation is in index.ts). */
export function registerUserAdminRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/admin/v1/workspaces/:workspace_id/users',
    { schema: { params: StrictObject({ workspace_id: Type.String() }), querystring: AdminListQuery } },
    async (request) => presentAdminList(await listUsersOf(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), request.query), presentOperatorUser),
  );

  app.patch(
    '/admin/v1/workspaces/:workspace_id/users/:user_id',
    { schema: { params: StrictObject({ workspace_id: Type.String(), user_id: Type.String() }), body: UpdateUserBody } },
    async (request) =>
      presentOperatorUser(
        await updatePerson(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), parseIdParam(request.params.user_id, 'user_id'), request.body),
      ),
  );

  app.delete(
    '/admin/v1/workspaces/:workspace_id/users/:user_id',
    { schema: { params: StrictObject({ workspace_id: Type.String(), user_id: Type.String() }) } },
    async (request) => {
      const userId = parseIdParam(request.params.user_id, 'user_id');
      await deletePerson(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), userId);
      return presentDeleted('user', userId);
    },
  );
}

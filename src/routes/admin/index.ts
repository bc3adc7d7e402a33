import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { parseIdParam } from '../../ids/ids.js';
import { createWorkspace } from '../../commands/admin/workspaces.js';
import { createPerson } from '../../commands/admin/users.js';
import { createConnection, deleteConnection, grantAccess, revokeAccess } from '../../commands/admin/connections.js';
import { createTopLevelPage } from '../../commands/admin/pages.js';
import { CreateConnectionBody, CreatePageBody, CreateUserBody, CreateWorkspaceBody, GrantBody } from '../../schemas/admin.js';
import { presentDeleted, presentGrant, presentIssuedToken, presentOperatorUser, presentWorkspace } from '../../presenters/adminObjects.js';
import { presentPage } from '../../presenters/page.js';
import { registerWorkspaceAdminRoutes } from './workspaces.js';
import { registerUserAdminRoutes } from './users.js';
import { registerConnectionAdminRoutes } from './connections.js';
import { registerClockAdminRoutes } from './clock.js';
import { registerFileUploadAdminRoutes } from './fileUploads.js';
import { registerProcessingAdminRoutes } from './processing.js';

const WorkspaceParams = StrictObject({ workspace_id: Type.String() });
const ConnectionParams = StrictObject({ connection_id: Type.String() });

export function registerAdminRoutes(app: App, ctx: AppContext): void {
  app.post('/admin/v1/workspaces', { schema: { body: CreateWorkspaceBody } }, async (request) => presentWorkspace(await createWorkspace(ctx, request.body)));

  app.post('/admin/v1/workspaces/:workspace_id/users', { schema: { params: WorkspaceParams, body: CreateUserBody } }, async (request) =>
    presentOperatorUser(await createPerson(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), request.body)),
  );

  app.post('/admin/v1/workspaces/:workspace_id/connections', { schema: { params: WorkspaceParams, body: CreateConnectionBody } }, async (request) => {
    const body = request.body;
    const userId = body.user_id === undefined ? undefined : parseIdParam(body.user_id, 'user_id');
    return presentIssuedToken(await createConnection(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), { ...body, user_id: userId }));
  });

  app.post('/admin/v1/workspaces/:workspace_id/pages', { schema: { params: WorkspaceParams, body: CreatePageBody } }, async (request) => {
    const createdBy = request.body.created_by === undefined ? undefined : parseIdParam(request.body.created_by, 'created_by');
    const view = await createTopLevelPage(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), { ...request.body, created_by: createdBy });
    return presentPage(view, { baseUrl: ctx.config.publicUrl });
  });

  app.post('/admin/v1/connections/:connection_id/grants', { schema: { params: ConnectionParams, body: GrantBody } }, async (request) => {
    const grant = { connection_id: parseIdParam(request.params.connection_id, 'connection_id'), object_id: parseIdParam(request.body.object_id, 'object_id') };
    await grantAccess(ctx, grant.connection_id, grant.object_id);
    return presentGrant(grant);
  });

  app.delete(
    '/admin/v1/connections/:connection_id/grants/:object_id',
    { schema: { params: StrictObject({ connection_id: Type.String(), object_id: Type.String() }) } },
    async (request) => {
      const grant = {
        connection_id: parseIdParam(request.params.connection_id, 'connection_id'),
        object_id: parseIdParam(request.params.object_id, 'object_id'),
      };
      await revokeAccess(ctx, grant.connection_id, grant.object_id);
      return { ...presentGrant(grant), deleted: true };
    },
  );

  app.delete('/admin/v1/connections/:connection_id', { schema: { params: ConnectionParams } }, async (request) => {
    const id = parseIdParam(request.params.connection_id, 'connection_id');
    await deleteConnection(ctx, id);
    return presentDeleted('connection', id);
  });

  registerWorkspaceAdminRoutes(app, ctx);
  registerUserAdminRoutes(app, ctx);
  registerConnectionAdminRoutes(app, ctx);
  registerFileUploadAdminRoutes(app, ctx);
  registerProcessingAdminRoutes(app, ctx);
  if (ctx.config.testClock) registerClockAdminRoutes(app, ctx);
}

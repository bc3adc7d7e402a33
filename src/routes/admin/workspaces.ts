import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { AdminListQuery } from '../../schemas/admin.js';
import { parseIdParam } from '../../http/ids.js';
import { deleteWorkspace, getWorkspace, listAllWorkspaces } from '../../commands/admin/workspaces.js';

const WorkspaceParams = StrictObject({ workspace_id: Type.String() });

/** Reading and deleting workspaces (creation is in index.ts). */
export function registerWorkspaceAdminRoutes(app: App, ctx: AppContext): void {
  app.get('/admin/v1/workspaces', { schema: { querystring: AdminListQuery } }, async (request) => listAllWorkspaces(ctx, request.query));

  app.get('/admin/v1/workspaces/:workspace_id', { schema: { params: WorkspaceParams } }, async (request) =>
    getWorkspace(ctx, parseIdParam(request.params.workspace_id, 'workspace_id')),
  );

  app.delete('/admin/v1/workspaces/:workspace_id', { schema: { params: WorkspaceParams } }, async (request) =>
    deleteWorkspace(ctx, parseIdParam(request.params.workspace_id, 'workspace_id')),
  );
}

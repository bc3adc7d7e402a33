import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { AdminListQuery, UpdateWorkspaceBody } from '../../schemas/admin.js';
import { presentAdminList, presentDeleted, presentWorkspace } from '../../presenters/adminObjects.js';
import { parseIdParam } from '../../ids/ids.js';
import { deleteWorkspace, getWorkspace, listAllWorkspaces, updateWorkspace } from '../../commands/admin/workspaces.js';

const WorkspaceParams = StrictObject({ workspace_id: Type.String() });

/** Reading, updating and deleting workspaces (creation is in index.ts). */
export function registerWorkspaceAdminRoutes(app: App, ctx: AppContext): void {
  app.get('/admin/v1/workspaces', { schema: { querystring: AdminListQuery } }, async (request) =>
    presentAdminList(await listAllWorkspaces(ctx, request.query), presentWorkspace),
  );

  app.get('/admin/v1/workspaces/:workspace_id', { schema: { params: WorkspaceParams } }, async (request) =>
    presentWorkspace(await getWorkspace(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'))),
  );

  app.patch('/admin/v1/workspaces/:workspace_id', { schema: { params: WorkspaceParams, body: UpdateWorkspaceBody } }, async (request) =>
    presentWorkspace(await updateWorkspace(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), request.body)),
  );

  app.delete('/admin/v1/workspaces/:workspace_id', { schema: { params: WorkspaceParams } }, async (request) => {
    const id = parseIdParam(request.params.workspace_id, 'workspace_id');
    await deleteWorkspace(ctx, id);
    return presentDeleted('workspace', id);
  });
}

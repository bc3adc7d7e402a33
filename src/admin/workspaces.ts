import { AdminWorkspace, CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceParams } from '../schemas/admin.js';
import { presentWorkspace } from '../presenters/adminObjects.js';
import { createWorkspace, deleteWorkspace, getWorkspace, listAllWorkspaces, updateWorkspace } from '../commands/admin/workspaces.js';
import { adminOperation, bodyOption, deletion, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

export const WORKSPACE_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/workspaces',
    body: CreateWorkspaceBody,
    response: AdminWorkspace,
    run: (ctx, { body }) => createWorkspace(ctx, body),
    present: presentWorkspace,
    cli: { name: 'create-workspace', description: 'create a workspace', options: [bodyOption('--name <name>', 'name', { required: true })] },
  }),
  listing({
    path: '/workspaces',
    item: AdminWorkspace,
    load: (ctx, _params, page) => listAllWorkspaces(ctx, page),
    presentItem: presentWorkspace,
    cli: { name: 'list-workspaces', description: 'list every workspace', options: [] },
  }),
  adminOperation({
    method: 'GET',
    path: '/workspaces/:workspace_id',
    params: WorkspaceParams,
    response: AdminWorkspace,
    run: (ctx, { params }) => getWorkspace(ctx, params.workspace_id),
    present: presentWorkspace,
    cli: { name: 'get-workspace', description: 'show one workspace', options: [pathOption('--workspace <id>', 'workspace_id')] },
  }),
  adminOperation({
    method: 'PATCH',
    path: '/workspaces/:workspace_id',
    params: WorkspaceParams,
    body: UpdateWorkspaceBody,
    response: AdminWorkspace,
    run: (ctx, { params, body }) => updateWorkspace(ctx, params.workspace_id, body),
    present: presentWorkspace,
  }),
  deletion({
    path: '/workspaces/:workspace_id',
    params: WorkspaceParams,
    object: 'workspace',
    idParam: 'workspace_id',
    remove: (ctx, params) => deleteWorkspace(ctx, params.workspace_id),
    cli: {
      name: 'delete-workspace',
      description: 'delete a workspace and everything in it: users, connections, grants and content',
      options: [pathOption('--workspace <id>', 'workspace_id')],
    },
  }),
];

import { CreateUserBody, OperatorUser, UpdateUserBody, WorkspaceParams, WorkspaceUserParams } from '../schemas/admin.js';
import { presentOperatorUser } from '../presenters/adminObjects.js';
import { createPerson, deletePerson, listUsersOf, updatePerson } from '../commands/admin/users.js';
import { adminOperation, bodyOption, deletion, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

export const USER_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/workspaces/:workspace_id/users',
    params: WorkspaceParams,
    body: CreateUserBody,
    response: OperatorUser,
    run: (ctx, { params, body }) => createPerson(ctx, params.workspace_id, body),
    present: presentOperatorUser,
    cli: {
      name: 'create-user',
      description: 'add a person to a workspace',
      options: [
        pathOption('--workspace <id>', 'workspace_id'),
        bodyOption('--name <name>', 'name', { required: true }),
        bodyOption('--email <email>', 'email', { required: true }),
        // Always sent: on unless --no-meeting-notes (issue 14).
        bodyOption('--meeting-notes', 'meeting_notes_enabled', {
          description: 'enable AI meeting notes for this user (the default)',
          convert: (value) => value !== false,
        }),
        { flags: '--no-meeting-notes', description: 'disable AI meeting notes for this user' },
      ],
    },
  }),
  listing({
    path: '/workspaces/:workspace_id/users',
    params: WorkspaceParams,
    item: OperatorUser,
    load: (ctx, params, page) => listUsersOf(ctx, params.workspace_id, page),
    presentItem: presentOperatorUser,
    cli: { name: 'list-users', description: "list a workspace's people and connection bots", options: [pathOption('--workspace <id>', 'workspace_id')] },
  }),
  adminOperation({
    method: 'PATCH',
    path: '/workspaces/:workspace_id/users/:user_id',
    params: WorkspaceUserParams,
    body: UpdateUserBody,
    response: OperatorUser,
    run: (ctx, { params, body }) => updatePerson(ctx, params.workspace_id, params.user_id, body),
    present: presentOperatorUser,
  }),
  deletion({
    path: '/workspaces/:workspace_id/users/:user_id',
    params: WorkspaceUserParams,
    object: 'user',
    idParam: 'user_id',
    remove: (ctx, params) => deletePerson(ctx, params.workspace_id, params.user_id),
    cli: {
      name: 'delete-user',
      description: 'delete a person (refused while a connection acts for them)',
      options: [pathOption('--workspace <id>', 'workspace_id'), pathOption('--user <id>', 'user_id')],
    },
  }),
];

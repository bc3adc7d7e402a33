import { parseIdParam } from '../ids/ids.js';
import { AdminConnection, ConnectionParams, CreateConnectionBody, IssuedToken, UpdateConnectionBody, WorkspaceParams } from '../schemas/admin.js';
import { presentConnection, presentIssuedToken } from '../presenters/adminObjects.js';
import {
  changeConnection,
  createConnection,
  deleteConnection,
  getConnection,
  listConnectionsOf,
  rotateConnectionToken,
} from '../commands/admin/connections.js';
import { adminOperation, bodyOption, commaList, deletion, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

const connectionOption = pathOption('--connection <id>', 'connection_id');

export const CONNECTION_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/workspaces/:workspace_id/connections',
    params: WorkspaceParams,
    body: CreateConnectionBody,
    response: IssuedToken,
    run: (ctx, { params, body }) => {
      const userId = body.user_id === undefined ? undefined : parseIdParam(body.user_id, 'user_id');
      return createConnection(ctx, params.workspace_id, { ...body, user_id: userId });
    },
    present: presentIssuedToken,
    cli: {
      name: 'create-connection',
      description: 'create a connection and print its token (shown only once)',
      options: [
        pathOption('--workspace <id>', 'workspace_id'),
        bodyOption('--name <name>', 'name', { required: true }),
        bodyOption('--kind <kind>', 'kind', { required: true, description: 'internal, public or personal' }),
        bodyOption('--capabilities <list>', 'capabilities', {
          description: 'comma-separated',
          defaultValue: 'read_content,update_content,insert_content,user_info_with_email',
          convert: commaList,
        }),
        bodyOption('--user <id>', 'user_id', { description: 'the person a public or personal token acts for' }),
      ],
    },
  }),
  listing({
    path: '/workspaces/:workspace_id/connections',
    params: WorkspaceParams,
    item: AdminConnection,
    load: (ctx, params, page) => listConnectionsOf(ctx, params.workspace_id, page),
    presentItem: presentConnection,
    cli: { name: 'list-connections', description: "list a workspace's live connections", options: [pathOption('--workspace <id>', 'workspace_id')] },
  }),
  adminOperation({
    method: 'GET',
    path: '/connections/:connection_id',
    params: ConnectionParams,
    response: AdminConnection,
    run: (ctx, { params }) => getConnection(ctx, params.connection_id),
    present: presentConnection,
    cli: { name: 'get-connection', description: 'show one connection (never its token)', options: [connectionOption] },
  }),
  adminOperation({
    method: 'PATCH',
    path: '/connections/:connection_id',
    params: ConnectionParams,
    body: UpdateConnectionBody,
    response: AdminConnection,
    run: (ctx, { params, body }) => changeConnection(ctx, params.connection_id, body),
    present: presentConnection,
    cli: {
      name: 'update-connection',
      description: 'rename a connection or replace its capabilities',
      options: [
        connectionOption,
        bodyOption('--name <name>', 'name'),
        bodyOption('--capabilities <list>', 'capabilities', { description: 'comma-separated; replaces the current list', convert: commaList }),
      ],
    },
  }),
  adminOperation({
    method: 'POST',
    path: '/connections/:connection_id/token',
    params: ConnectionParams,
    response: IssuedToken,
    run: (ctx, { params }) => rotateConnectionToken(ctx, params.connection_id),
    present: presentIssuedToken,
    cli: {
      name: 'rotate-token',
      description: 'give a connection a new token and print it (the old one stops working at once)',
      options: [connectionOption],
    },
  }),
  deletion({
    path: '/connections/:connection_id',
    params: ConnectionParams,
    object: 'connection',
    idParam: 'connection_id',
    remove: (ctx, params) => deleteConnection(ctx, params.connection_id),
    cli: { name: 'delete-connection', description: 'revoke a connection: its token stops working at once', options: [connectionOption] },
  }),
];

import { parseIdParam } from '../ids/ids.js';
import { AdminGrant, ConnectionParams, GrantBody, GrantParams, RevokedGrant } from '../schemas/admin.js';
import { presentGrant, presentRevokedGrant } from '../presenters/adminObjects.js';
import { grantAccess, listGrantsOf, revokeAccess } from '../commands/admin/connections.js';
import { adminOperation, bodyOption, listing, pathOption, type AnyAdminOperation } from './adminOperation.js';

const connectionOption = pathOption('--connection <id>', 'connection_id');

/** What is shared with a connection: an object and everything under it. */
export const GRANT_OPERATIONS: readonly AnyAdminOperation[] = [
  listing({
    path: '/connections/:connection_id/grants',
    params: ConnectionParams,
    item: AdminGrant,
    load: (ctx, params, page) => listGrantsOf(ctx, params.connection_id, page),
    presentItem: presentGrant,
    cli: { name: 'list-grants', description: 'list what is shared with a connection', options: [connectionOption] },
  }),
  adminOperation({
    method: 'POST',
    path: '/connections/:connection_id/grants',
    params: ConnectionParams,
    body: GrantBody,
    response: AdminGrant,
    run: async (ctx, { params, body }) => {
      const grant = { connection_id: params.connection_id, object_id: parseIdParam(body.object_id, 'object_id') };
      await grantAccess(ctx, grant.connection_id, grant.object_id);
      return grant;
    },
    present: presentGrant,
    cli: {
      name: 'grant',
      description: 'share an object (and everything under it) with a connection',
      options: [connectionOption, bodyOption('--object <id>', 'object_id', { required: true })],
    },
  }),
  adminOperation({
    method: 'DELETE',
    path: '/connections/:connection_id/grants/:object_id',
    params: GrantParams,
    response: RevokedGrant,
    run: async (ctx, { params }) => {
      await revokeAccess(ctx, params.connection_id, params.object_id);
      return params;
    },
    present: presentRevokedGrant,
    cli: {
      name: 'revoke-grant',
      description: 'stop sharing an object with a connection',
      options: [connectionOption, pathOption('--object <id>', 'object_id')],
    },
  }),
];

import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { StrictObject } from '../../schemas/common.js';
import { AdminListQuery, UpdateConnectionBody } from '../../schemas/admin.js';
import { presentAdminList, presentConnection, presentGrant, presentIssuedToken } from '../../presenters/adminObjects.js';
import { parseIdParam } from '../../ids/ids.js';
import { changeConnection, getConnection, listConnectionsOf, listGrantsOf, rotateConnectionToken } from '../../commands/admin/connections.js';

const ConnectionParams = StrictObject({ connection_id: Type.String() });

/** Reading, changing and rotating connections (creation, grants and revocation are in index.ts). */
export function registerConnectionAdminRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/admin/v1/workspaces/:workspace_id/connections',
    { schema: { params: StrictObject({ workspace_id: Type.String() }), querystring: AdminListQuery } },
    async (request) =>
      presentAdminList(await listConnectionsOf(ctx, parseIdParam(request.params.workspace_id, 'workspace_id'), request.query), presentConnection),
  );

  app.get('/admin/v1/connections/:connection_id', { schema: { params: ConnectionParams } }, async (request) =>
    presentConnection(await getConnection(ctx, parseIdParam(request.params.connection_id, 'connection_id'))),
  );

  app.patch('/admin/v1/connections/:connection_id', { schema: { params: ConnectionParams, body: UpdateConnectionBody } }, async (request) =>
    presentConnection(await changeConnection(ctx, parseIdParam(request.params.connection_id, 'connection_id'), request.body)),
  );

  app.post('/admin/v1/connections/:connection_id/token', { schema: { params: ConnectionParams } }, async (request) =>
    presentIssuedToken(await rotateConnectionToken(ctx, parseIdParam(request.params.connection_id, 'connection_id'))),
  );

  app.get('/admin/v1/connections/:connection_id/grants', { schema: { params: ConnectionParams, querystring: AdminListQuery } }, async (request) =>
    presentAdminList(await listGrantsOf(ctx, parseIdParam(request.params.connection_id, 'connection_id'), request.query), presentGrant),
  );
}

import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { PaginationQuery, StrictObject } from '../../schemas/common.js';
import { getMe, listWorkspaceUsers, retrieveUser } from '../../commands/users.js';
import { UserListResponse, UserResponse } from '../../schemas/users.js';
import { parseIdParam } from '../../ids/ids.js';
import { presentUserList, presentUserView } from '../../presenters/user.js';

export function registerUserRoutes(app: App, ctx: AppContext): void {
  // Not async: getMe answers without a promise when authentication already read the rows.
  app.get('/v1/users/me', { config: { response: UserResponse } }, (request) => {
    const caller = request.caller!;
    const me = getMe(ctx, caller);
    return me instanceof Promise ? me.then((view) => presentUserView(view, caller)) : presentUserView(me, caller);
  });

  app.get('/v1/users', { config: { response: UserListResponse }, schema: { querystring: PaginationQuery } }, async (request) =>
    presentUserList(await listWorkspaceUsers(ctx, request.caller!, request.query.start_cursor, request.query.page_size ?? 100), request.caller!),
  );

  app.get('/v1/users/:user_id', { config: { response: UserResponse }, schema: { params: StrictObject({ user_id: Type.String() }) } }, async (request) => {
    const raw = request.params.user_id;
    return presentUserView(await retrieveUser(ctx, request.caller!, parseIdParam(raw, 'user_id'), raw), request.caller!);
  });
}

import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors/registry.js';
import { tokensMatch } from '../auth/tokens.js';
import type { RegisterRoutes } from './app.js';
import { acceptJsonBodies, BODY_LIMIT } from './jsonBody.js';
import { acceptYamlBodies } from './yamlBody.js';

export interface AdminPlaneOptions {
  ctx: AppContext;
  /** SHA-256 of the admin token. */
  adminTokenHash: string;
  routes: RegisterRoutes;
}

/** `/admin/v1`: the operator's plane. One admin token, JSON (or YAML) bodies, no version header, no rate limit. */
export const adminPlane: FastifyPluginCallbackTypebox<AdminPlaneOptions> = (plane, { ctx, adminTokenHash, routes }, done) => {
  acceptJsonBodies(plane, BODY_LIMIT);
  acceptYamlBodies(plane, BODY_LIMIT);
  plane.addHook('onRequest', (request, _reply, next) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token || !tokensMatch(token, adminTokenHash)) return next(new ApiError('unauthorized', 'Admin token is invalid.'));
    next();
  });
  routes(plane, ctx);
  done();
};

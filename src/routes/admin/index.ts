import type { FastifySchema } from 'fastify';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { ADMIN_OPERATIONS, performAdminOperation, type AnyAdminOperation } from '../../admin/index.js';
import { registerRequestStream } from './requestStream.js';

/** Where an operation's request schemas go on its route: Fastify validates each part before the handler runs. */
function schemaOf(operation: AnyAdminOperation): FastifySchema {
  return {
    ...(operation.params ? { params: operation.params } : {}),
    ...(operation.query ? { querystring: operation.query } : {}),
    ...(operation.body ? { body: operation.body } : {}),
  };
}

/** `/admin/v1`: one route per operation of the table (src/admin/index.ts), declared with its request and response schemas. */
export function registerAdminRoutes(app: App, ctx: AppContext): void {
  for (const operation of ADMIN_OPERATIONS) {
    if (operation.enabled && !operation.enabled(ctx)) continue;
    app.route({
      method: operation.method,
      url: `/admin/v1${operation.path}`,
      schema: schemaOf(operation),
      config: { response: operation.response },
      ...(operation.bodyLimit ? { bodyLimit: operation.bodyLimit } : {}),
      handler: (request) => performAdminOperation(operation, ctx, { params: request.params, query: request.query, body: request.body }),
    });
  }
  registerRequestStream(app, ctx);
}

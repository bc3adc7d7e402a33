import cluster from 'node:cluster';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Core } from './core.js';
import type { App } from './http/app.js';
import { ApiError } from './errors/registry.js';
import { errorHandler, renderError } from './http/errorHandler.js';
import { buildValidatorCompiler } from './http/validators.js';
import { addSharedSchemas } from './http/sharedSchemas.js';
import { acceptJsonBodies, BODY_LIMIT } from './http/jsonBody.js';
import { requestRecorder } from './http/requestLog.js';
import { RequestBudget } from './http/requestBudget.js';
import { newId } from './ids/ids.js';
import { adminPlane } from './http/adminPlane.js';
import { v1Plane } from './http/v1Plane.js';
import { LATEST_VERSION } from './versioning/versions.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerObjectLinkRoute, registerRootRoute } from './routes/root.js';
import { registerFileRoutes } from './routes/files.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerCustomEmojiImageRoute } from './routes/customEmojis/index.js';
import { registerAdminRoutes } from './routes/admin/index.js';
import { registerV1Routes } from './routes/index.js';
import { checkResponses } from './http/checkResponses.js';
import { registerOpenApi } from './http/openapi.js';
import type { V1Route } from './http/augment.js';
import { consolePlane } from './http/consolePlane.js';
import { oauthPlane } from './http/oauthPlane.js';
import { refuseUnderPressure } from './http/overload.js';
import { registerOAuthRoutes } from './routes/oauth/index.js';
import type { Logger } from './logger.js';
import { answerClientError, answerFrameworkError, MAX_HEADER_BYTES, MAX_PARAM_LENGTH, REQUEST_TIMEOUT_MS } from './http/clientErrors.js';

/**
 * @fastify/ajv-compiler's type for the factory returns Ajv's `compile`; Fastify calls what it
 * returns as a schema compiler (with `{schema, httpPart, …}`), which is what ours is.
 */
type ValidatorFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator'];

function createFastify(log: Logger): App {
  return Fastify({
    // Request logs are written by http/requestLog.ts, without a logger per request.
    logger: false,
    genReqId: () => newId(),
    // The not-found answer's body limit: Fastify's 404 context takes the instance's, not its parser's.
    bodyLimit: BODY_LIMIT,
    // Unknown paths and wrong methods are one error (FACTS.md §6); trailing slashes are not special.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Requests refused before routing (a bad URL, one Node's parser refuses) answer in the spec's
    // error body with a request id too (src/http/clientErrors.ts).
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError(log),
    // Node answers a missing Host header itself, with an empty body; the root's onRequest hook
    // refuses it instead, in the spec's body.
    http: { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Not `handlerTimeout`: the request's budget is src/http/requestBudget.ts, which costs a request less.
    // Fastify's own 503 while closing has a body of another shape; the onRequest hook refuses
    // those requests instead, with the spec's error body.
    return503OnClosing: false,
    // Ajv as src/http/validators.ts configures it, given the schemas added with app.addSchema.
    schemaController: { compilersFactory: { buildValidator: buildValidatorCompiler as unknown as ValidatorFactory } },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

export interface ServerOptions {
  /** SHA-256 of the admin token. */
  adminTokenHash: string;
  redis?: Redis | null;
}

/**
 * The HTTP server on a core: the root serves health checks and the answers every plane shares
 * (request ids, the error body, unknown paths, draining); the v1 and admin planes are
 * encapsulated plugins, each with its own hooks and body parsers. Closing the server closes the core.
 */
export async function buildServer(core: Core, options: ServerOptions): Promise<App> {
  const app = createFastify(core.log);
  const budget = new RequestBudget(core.config.overload.requestTimeoutMs);
  const record = requestRecorder(core.log, core.instruments);
  // The root's one onResponse hook, for every request.
  app.addHook('onResponse', (request, reply, done) => {
    budget.end(reply);
    if (record) record(request, reply);
    done();
  });
  // Before any route: route schemas refer to these by $id.
  addSharedSchemas(app);
  // Before any route too: the document is made from the routes as they register.
  const v1Routes: V1Route[] = [];
  app.decorate('v1Routes', v1Routes);
  await registerOpenApi(app, () => core.config.publicUrl, v1Routes);
  app.setErrorHandler((error, request, reply) => errorHandler(error, request, reply, core.log));
  // Registered on the root, so unknown paths and wrong methods answer the same whichever plane's
  // prefix they share (FACTS.md §6): no plane's authentication runs before it.
  app.setNotFoundHandler((request, reply) => renderError(request, reply, new ApiError('invalid_request_url')));
  // The not-found answer reads a body as the planes do: a malformed one is invalid_json first.
  acceptJsonBodies(app, BODY_LIMIT);
  // Declared on the root so every request has the same shape; only the v1 plane sets them.
  app.decorateRequest('caller', null);
  app.decorateRequest('apiVersion', LATEST_VERSION);
  app.decorateRequest('answer', null);
  app.decorateRequest('apiError', null);
  app.decorateRequest('routeConfig', null);
  app.decorateRequest('keepForReuse', null);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // Runs before any plane's hooks, for every request including unknown paths.
  // Which of several processes answered (FOLIO_PROCESSES > 1: this is one a primary forked), for
  // an operator and for the tests that check the port is shared.
  const pid = cluster.isWorker ? String(process.pid) : null;
  app.addHook('onRequest', (request, reply, done) => {
    budget.start(request, reply);
    reply.header('x-request-id', request.id);
    if (pid) reply.header('x-folio-pid', pid);
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400.
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1')
      return done(new ApiError('invalid_request', 'Unsupported request: an HTTP/1.1 request must carry a Host header.'));
    if (!closing) return done();
    // Requests still arriving on kept-alive connections while in-flight ones drain.
    reply.header('connection', 'close');
    done(new ApiError('service_unavailable', 'The server is shutting down. Please try again.'));
  });

  app.addHook('onClose', async () => {
    budget.close();
    await core.close();
  });

  // Before the planes, whose authentication would otherwise be the first work an overloaded server queues.
  await refuseUnderPressure(app, core.config.overload, core.log);

  // Test runs only: every newest-version body is checked against its route's schema. Added before
  // the planes so that their routes inherit the hook.
  if (core.config.checkResponses) checkResponses(app, core.log);
  registerRootRoute(app, core);
  registerObjectLinkRoute(app);
  registerHealthRoutes(app, core);
  registerFileRoutes(app, core);
  if (core.config.metrics) registerMetricsRoute(app, core);
  registerCustomEmojiImageRoute(app, core);
  app.register(adminPlane, { ctx: core, adminTokenHash: options.adminTokenHash, routes: registerAdminRoutes });
  app.register(v1Plane, { ctx: core, redis: options.redis ?? null, routes: registerV1Routes });
  app.register(consolePlane);
  app.register(oauthPlane, { ctx: core, routes: registerOAuthRoutes });
  return app;
}

import Fastify, { type FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import './http/augment.js';
import type { AppContext } from './context.js';
import { ApiError } from './errors/registry.js';
import { errorHandler, renderError, toApiError } from './http/errorHandler.js';
import { validatorCompiler } from './http/validators.js';
import { screenBody } from './http/screenBody.js';
import { createRateLimit } from './http/rateLimit.js';
import { createLogger, logRequests, type Logger } from './http/requestLog.js';
import { readVersion } from './http/versionHeader.js';
import { authenticate, requireCapability } from './auth/authenticate.js';
import type { Caller, Capability } from './auth/capabilities.js';
import { newId } from './http/ids.js';
import { VersionEngine } from './versioning/engine.js';
import { LATEST_VERSION } from './versioning/versions.js';
import { registerRoutes } from './routes/index.js';
import { tokensMatch } from './auth/tokens.js';
import { checkResponses } from './http/checkResponses.js';

export type App = ReturnType<typeof createFastify>;

/** FACTS.md §6: payloads are limited to 500 KB; the parser refuses more before reading it all. */
export const BODY_LIMIT = 500 * 1024;

function createFastify() {
  return Fastify({
    // Request logs are written by http/requestLog.ts, without a logger per request.
    logger: false,
    genReqId: () => newId(),
    bodyLimit: BODY_LIMIT,
    // Unknown paths and wrong methods are one error (FACTS.md §6); trailing slashes are not special.
    routerOptions: { ignoreTrailingSlash: true },
    // Fastify's own 503 while closing has a body of another shape; the onRequest hook refuses
    // those requests instead, with the spec's error body.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
}

export interface ServerOptions {
  /** SHA-256 of the admin token. */
  adminTokenHash: string;
  redis?: Redis | null;
  /** Where logs go; by default JSON lines on stdout at the configured level. */
  log?: Logger;
}

export async function buildServer(ctx: AppContext, options: ServerOptions): Promise<App> {
  const app = createFastify();
  const log = options.log ?? createLogger(ctx.config.logLevel);
  logRequests(app, log);
  const versions = new VersionEngine();
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    // Older callers read validation messages in their own version's field names.
    if (apiError.code === 'validation_error' && request.surface === 'v1' && request.apiVersion !== LATEST_VERSION) {
      const route = `${request.method} ${request.routeOptions.url}`;
      const translated = versions.translateValidationMessage(request.apiVersion, route, apiError.message);
      if (translated !== apiError.message) return errorHandler(new ApiError('validation_error', translated), request, reply, log);
    }
    return errorHandler(error, request, reply, log);
  });
  app.setNotFoundHandler((request, reply) => renderError(request, reply, new ApiError('invalid_request_url')));
  app.decorateRequest('caller', null);
  app.decorateRequest('apiVersion', LATEST_VERSION);
  app.decorateRequest('surface', null);

  // An empty JSON body is treated as {} (the SDK sends none for body-less calls); anything else
  // must parse, or the answer is invalid_json.
  // Only JSON is read; a text/plain body must be refused as such, not validated as a string.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new ApiError('invalid_json'), undefined);
    }
    try {
      screenBody(parsed);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, parsed);
  });

  const checkRateLimit = ctx.config.rateLimit
    ? createRateLimit({ rate: ctx.config.rateLimit, windowSeconds: ctx.config.rateLimitWindow, redis: options.redis })
    : null;

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  type Done = (error?: Error) => void;

  /** After authentication: the version header, the rate limit, the capability (docs/decisions.md, "Check order"). */
  const admitV1 = (request: FastifyRequest, caller: Caller, capability: Capability | undefined, done: Done): void => {
    request.caller = caller;
    const finish = () => {
      try {
        if (capability) requireCapability(caller, capability);
      } catch (error) {
        return done(error as Error);
      }
      done();
    };
    try {
      request.apiVersion = readVersion(request.headers);
    } catch (error) {
      return done(error as Error);
    }
    if (checkRateLimit) checkRateLimit(caller.connectionId).then(finish, done);
    else finish();
  };

  // Callback style, and synchronous as far as the store allows: this runs before every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    const config = request.routeOptions.config;
    request.surface = config.surface ?? null;
    let caller: Caller | Promise<Caller> | null = null;
    try {
      if (closing) {
        // Requests still arriving on kept-alive connections while in-flight ones drain.
        reply.header('connection', 'close');
        throw new ApiError('service_unavailable', 'The server is shutting down. Please try again.');
      }
      if (config.surface === 'admin') {
        const header = request.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
        if (!token || !tokensMatch(token, options.adminTokenHash)) throw new ApiError('unauthorized', 'Admin token is invalid.');
      }
      if (config.surface === 'v1') caller = authenticate(ctx.store, request.headers.authorization);
    } catch (error) {
      return done(error as Error);
    }
    // done() runs the rest of the request, so it is called outside the try above.
    if (caller === null) done();
    else if (caller instanceof Promise) caller.then((found) => admitV1(request, found, config.capability, done), done);
    else admitV1(request, caller, config.capability, done);
  });

  // Callback-style hooks: these run on every request and usually do nothing, so they avoid a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.surface !== 'v1' || request.apiVersion === LATEST_VERSION) return done();
    const versioned = {
      route: `${request.method} ${request.routeOptions.url}`,
      body: request.body,
      query: (request.query ?? {}) as Record<string, unknown>,
      params: (request.params ?? {}) as Record<string, string>,
    };
    try {
      versions.upgradeRequest(request.apiVersion, versioned);
    } catch (error) {
      return done(error as Error);
    }
    request.body = versioned.body;
    request.query = versioned.query;
    done();
  });

  app.addHook('preSerialization', (request, _reply, payload, done) => {
    if (request.surface !== 'v1' || request.apiVersion === LATEST_VERSION) return done(null, payload);
    if (payload && typeof payload === 'object' && (payload as { object?: unknown }).object === 'error') return done(null, payload);
    try {
      done(null, versions.downgradeResponse(request.apiVersion, `${request.method} ${request.routeOptions.url}`, payload));
    } catch (error) {
      done(error as Error);
    }
  });

  app.addHook('onClose', async () => {
    await ctx.store.close();
  });

  // Test runs only: every newest-version body is checked against its route's schema.
  if (process.env.FOLIO_CHECK_RESPONSES === '1') checkResponses(app, log);
  registerRoutes(app, ctx);
  return app;
}

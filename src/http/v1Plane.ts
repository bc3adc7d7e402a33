import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { authenticate, requireCapability } from '../auth/authenticate.js';
import type { Caller, Capability } from '../auth/capabilities.js';
import { VersionEngine } from '../versioning/engine.js';
import { isNewestVersion } from '../versioning/versions.js';
import { ApiError } from '../errors/registry.js';
import type { RegisterRoutes } from './app.js';
import { keepAnswer } from './requestLog.js';
import { acceptJsonBodies, BODY_LIMIT } from './jsonBody.js';
import { createRateLimit } from './rateLimit.js';
import { ValidationFailure } from '../errors/validationFailure.js';
import { toApiError } from './errorHandler.js';
import { readVersion } from './versionHeader.js';
import { HOSTED_SCHEME } from '../domain/files/hostedFiles.js';
import { applyFault } from './faultHook.js';

export interface V1PlaneOptions {
  ctx: AppContext;
  /** When given, every instance counts rate-limit budgets in the same place. */
  redis: Redis | null;
  /** The plane's routes; each declares its capability in `config.capability`. */
  routes: RegisterRoutes;
}

type Done = (error?: Error) => void;

/**
 * `/v1`: the versioned Content API. Checks run in the order of docs/decisions.md ("Check order"):
 * bearer token, version header, rate limit, capability, then the body (parsed and validated by
 * Fastify after onRequest). Requests are walked forward from the caller's version before
 * validation, responses back after the handler (src/versioning/).
 */
export const v1Plane: FastifyPluginCallbackTypebox<V1PlaneOptions> = (plane, { ctx, redis, routes }, done) => {
  const versions = new VersionEngine();
  const { rateLimit, rateLimitWindow } = ctx.config;
  const checkRateLimit = rateLimit ? createRateLimit({ rate: rateLimit, windowSeconds: rateLimitWindow, redis }) : null;

  acceptJsonBodies(plane, BODY_LIMIT);

  // Older callers read validation messages in their own version's field names; the root's handler
  // renders whatever is thrown on from here (Fastify hands an error thrown by a plugin's error
  // handler to its parent's).
  plane.setErrorHandler((error, request) => {
    if (isNewestVersion(request.apiVersion)) throw error;
    const apiError = toApiError(error);
    if (!(apiError instanceof ValidationFailure)) throw error;
    const translated = versions.translateValidationFailure(request.apiVersion, `${request.method} ${request.routeOptions.url}`, apiError);
    throw translated === apiError ? error : translated;
  });

  /** After authentication: the version header, the rate limit, a fault set on demand (issue 26), the capability. */
  const admit = (request: FastifyRequest, reply: FastifyReply, caller: Caller, capability: Capability | undefined, next: Done): void => {
    request.caller = caller;
    const finish = () => {
      if (applyFault(ctx.instruments.faults, request, reply, next)) return;
      try {
        if (capability) requireCapability(caller, capability);
      } catch (error) {
        return next(error as Error);
      }
      next();
    };
    try {
      request.apiVersion = readVersion(request.headers);
    } catch (error) {
      return next(error as Error);
    }
    if (checkRateLimit) checkRateLimit(caller.connectionId).then(finish, next);
    else finish();
  };

  // Callback style, and synchronous as far as the store allows: this runs before every request
  // (docs/benchmarks.md, "users-me: what closed the gap").
  plane.addHook('onRequest', (request, reply, next) => {
    // Fastify builds routeOptions anew on each read: read once, kept for the later hooks.
    const config = (request.routeConfig = request.routeOptions.config);
    const { capability } = config;
    let caller: Caller | Promise<Caller>;
    try {
      caller = authenticate(ctx.store, request.headers.authorization);
    } catch (error) {
      return next(error as Error);
    }
    // next() runs the rest of the request, so it is called outside the try above.
    if (caller instanceof Promise) caller.then((found) => admit(request, reply, found, capability, next), next);
    else admit(request, reply, caller, capability, next);
  });

  // Callback-style hooks: these run on every request and usually do nothing, so they avoid a promise.
  plane.addHook('preValidation', (request, _reply, next) => {
    const route = `${request.method} ${request.routeConfig!.url}`;
    if (versions.isAbsent(request.apiVersion, route)) return next(new ApiError('invalid_request_url'));
    if (isNewestVersion(request.apiVersion)) return next();
    const versioned = {
      route,
      body: request.body,
      query: (request.query ?? {}) as Record<string, unknown>,
      params: (request.params ?? {}) as Record<string, string>,
    };
    try {
      versions.upgradeRequest(request.apiVersion, versioned);
    } catch (error) {
      return next(error as Error);
    }
    request.body = versioned.body;
    request.query = versioned.query;
    next();
  });

  plane.addHook('preSerialization', (request, _reply, payload, next) => {
    if (isNewestVersion(request.apiVersion)) return next(null, payload);
    if (payload && typeof payload === 'object' && (payload as { object?: unknown }).object === 'error') return next(null, payload);
    try {
      next(null, versions.downgradeResponse(request.apiVersion, `${request.method} ${request.routeOptions.url}`, payload));
    } catch (error) {
      next(error as Error);
    }
  });

  // Hosted files are stored as references and become signed links as the body leaves, whichever
  // route, version or fast path wrote it (src/domain/files/hostedFiles.ts). A body without one
  // costs one substring search.
  const logAnswers = ctx.instruments.requests.capacity > 0;
  plane.addHook('onSend', (request, reply, payload, next) => {
    if (request.keepForReuse && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) request.keepForReuse(payload);
    let sent = payload;
    // The test first: reading the clock makes a Date, and most bodies hold no hosted file.
    if (typeof payload === 'string') {
      if (payload.includes(HOSTED_SCHEME)) sent = ctx.fileLinks.linkAll(payload, ctx.config.publicUrl, ctx.clock.now());
    }
    // Search and query at the newest version send bytes they spliced (src/presenters/jsonSplice.ts).
    else if (Buffer.isBuffer(payload) && payload.includes(HOSTED_SCHEME))
      sent = ctx.fileLinks.linkAll(payload.toString('utf8'), ctx.config.publicUrl, ctx.clock.now());
    // The request log shows the answer (src/http/requestLog.ts); this hook runs anyway, so keeping it costs no extra hook.
    if (logAnswers) keepAnswer(request, sent);
    next(null, sent);
  });

  routes(plane, ctx);
  done();
};

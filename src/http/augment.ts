import type { Caller, Capability } from '../auth/capabilities.js';
import type { TSchema } from 'typebox';
import type { ApiVersion } from '../versioning/versions.js';
import type { ApiError } from '../errors/registry.js';

/** A `/v1` route as registered, for the check that each is described (src/http/openapi.ts). */
export interface V1Route {
  method: string;
  url: string;
  /** Its newest-version response body (`config.response`); a route without one is undescribed. */
  response: TSchema | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Capability a v1 route requires; missing → 403 restricted_resource (src/http/v1Plane.ts). */
    capability?: Capability;
    /** A v1 route's newest-version response body (src/schemas/<resource>.ts), for OpenAPI and test-run checks. */
    response?: TSchema;
    /** A browser page of the OAuth plane: its errors are HTML pages (src/http/oauthPlane.ts). */
    html?: boolean;
  }
  interface FastifyInstance {
    /** Every `/v1` route as registered (src/http/openapi.ts), to check each is described. */
    v1Routes: readonly V1Route[];
  }
  interface FastifyRequest {
    /** The authenticated connection; set by the v1 plane, null elsewhere. */
    caller: Caller | null;
    /** The caller's version; set by the v1 plane from its header, the newest elsewhere. */
    apiVersion: ApiVersion;
    /** What a `/v1` request answered, kept for the request log (src/http/requestLog.ts); null elsewhere. */
    answer: unknown;
    /** The error this request was answered with, for the request log and the log line (src/http/errorHandler.ts); null if none. */
    apiError: ApiError | null;
    /** Set by a route whose answer may be kept (src/http/keptAnswers.ts): given the body as sent, before links are signed. Null elsewhere. */
    keepForReuse: ((body: string | Buffer) => void) | null;
    /** A `/v1` route's config as the plane first read it: Fastify builds `routeOptions` anew on each read. Null elsewhere. */
    routeConfig: (FastifyContextConfig & { url: string }) | null;
  }
}

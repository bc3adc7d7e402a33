import type { Caller, Capability } from '../auth/capabilities.js';
import type { TSchema } from 'typebox';
import type { ApiVersion } from '../versioning/versions.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which plane a route belongs to: the versioned Content API, the admin plane or operations. */
    surface?: 'v1' | 'admin' | 'ops';
    /** Capability a v1 route requires; missing → 403 restricted_resource. */
    capability?: Capability;
    /** A v1 route's newest-version response body (src/schemas/responses.ts), for OpenAPI and test-run checks. */
    response?: TSchema;
  }
  interface FastifyRequest {
    caller: Caller | null;
    apiVersion: ApiVersion;
    /** The route's plane, read once from its config (Fastify builds routeOptions anew on each read). */
    surface: FastifyContextConfig['surface'] | null;
  }
}

export {};

import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import './augment.js';

/**
 * The Fastify instance routes are declared on: the root or one of its planes (src/http/*Plane.ts).
 * It lives here, not in src/server.ts, so routes never import the server that registers them.
 */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Declares a group of routes on a plane; the plane supplies authentication, versions and parsing. */
export type RegisterRoutes = (app: App, ctx: AppContext) => void;

import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import { answeredError } from './errorHandler.js';

/**
 * One structured line per request, carrying its id, written when the response has gone. Fastify's
 * built-in request logging gives every request a child logger whether or not anything is logged,
 * which cost about a tenth of the throughput of `GET /v1/users/me` (docs/benchmarks.md, "users-me");
 * here the hook exists only when the level writes these lines at all.
 */
export function logRequests(app: FastifyInstance, log: Logger): void {
  if (!log.isLevelEnabled('info')) return;
  app.addHook('onResponse', (request, reply, done) => {
    // A failed request's line names its error, so an operator reads why without the client's body.
    const error = answeredError(request);
    log.info(
      {
        reqId: request.id,
        req: { method: request.method, url: request.url },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
        // Not `err`: pino's error serializer would turn it into a stack-trace shape.
        ...(error ? { error: { code: error.code, message: error.message } } : {}),
      },
      'request completed',
    );
    done();
  });
}

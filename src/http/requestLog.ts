import type { FastifyInstance } from 'fastify';
import type { Logger } from '../logger.js';
import type { Instruments } from '../context.js';
import type { FastifyRequest } from 'fastify';
import { answeredError } from './errorHandler.js';
import { keptBody } from '../instruments/requestLog.js';

/** What each `/v1` request answered, kept by the plane's onSend (src/http/v1Plane.ts) for the log: a reference, no copy. */
const answers = new WeakMap<FastifyRequest, unknown>();
export function keepAnswer(request: FastifyRequest, payload: unknown): void {
  answers.set(request, payload);
}

/**
 * What every answered request leaves behind, from one hook (each hook a request runs costs it
 * throughput: docs/benchmarks.md, "users-me"): its observation in the metrics, by route pattern so
 * ids don't multiply the series; for `/v1`, an entry in the request log the admin plane and the
 * console read; and, when the level writes them, one structured log line carrying its id. Fastify's
 * built-in request logging gives every request a child logger whether or not anything is logged,
 * which cost about a tenth of the throughput of `GET /v1/users/me`.
 */
export function recordRequests(app: FastifyInstance, log: Logger, { requests, metrics }: Instruments): void {
  const logLines = log.isLevelEnabled('info');
  // Nothing to keep: no hook at all, so turning them off measures what they cost (bench/instruments/).
  if (!metrics.enabled && requests.capacity === 0 && !logLines) return;
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? null;
    const elapsed = reply.elapsedTime;
    metrics.observeRequest(route ?? 'unmatched', request.method, reply.statusCode, elapsed / 1000);
    const url = request.url;
    // A failed request names its error, so an operator reads why without the client's body.
    const error = answeredError(request);
    // Hosted files too: a player's range requests for a recording show in the console's log.
    if (requests.capacity > 0 && (url.startsWith('/v1/') || url.startsWith('/files/'))) {
      const headers = request.headers;
      const version = headers['notion-version'] ?? headers['service-version'];
      requests.record({
        request_id: request.id,
        time: new Date().toISOString(),
        method: request.method,
        path: url.split('?', 1)[0],
        route,
        connection_id: request.caller?.connectionId ?? null,
        version: typeof version === 'string' ? version : null,
        status: reply.statusCode,
        duration_ms: Math.round(elapsed * 100) / 100,
        error_code: error?.code ?? null,
        request_body: keptBody(request.body),
        response_body: keptBody(answers.get(request)),
      });
    }
    if (logLines) {
      log.info(
        {
          reqId: request.id,
          req: { method: request.method, url },
          res: { statusCode: reply.statusCode },
          responseTime: elapsed,
          // Not `err`: pino's error serializer would turn it into a stack-trace shape.
          ...(error ? { error: { code: error.code, message: error.message } } : {}),
        },
        'request completed',
      );
    }
    done();
  });
}

import type { FastifyInstance } from 'fastify';
import type { Instruments } from '../context.js';
import { answeredError } from './errorHandler.js';

/**
 * Every answered request goes to the metrics (by route pattern, so ids don't multiply the series);
 * `/v1` requests also go to the request log the admin plane and the console read. One hook, and
 * nothing in it awaits, so it adds no promise to a request.
 */
export function recordRequests(app: FastifyInstance, { requests, metrics }: Instruments): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? null;
    const seconds = reply.elapsedTime / 1000;
    metrics.observeRequest(route ?? 'unmatched', request.method, reply.statusCode, seconds);
    const url = request.url;
    if (url.startsWith('/v1/') && requests.capacity > 0) {
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
        duration_ms: Math.round(reply.elapsedTime * 100) / 100,
        error_code: answeredError(request)?.code ?? null,
      });
    }
    done();
  });
}

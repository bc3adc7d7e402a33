import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logger.js';
import type { Instruments } from '../context.js';
import { answeredError } from './errorHandler.js';
import { API_VERSIONS } from '../versioning/versions.js';

/**
 * What each `/v1` request answered, kept by the plane's onSend (src/http/v1Plane.ts) for the log:
 * a reference, no copy, on the request itself (a WeakMap entry per request cost the collector more).
 */
export function keepAnswer(request: FastifyRequest, payload: unknown): void {
  request.answer = payload;
}

/**
 * What every answered request leaves behind, run from the root's one onResponse hook (each hook a
 * request runs costs it throughput: docs/benchmarks.md, "users-me"): its observation in the metrics, by route pattern so
 * ids don't multiply the series; for `/v1`, an entry in the request log the admin plane and the
 * console read; and, when the level writes them, one structured log line carrying its id. Fastify's
 * built-in request logging gives every request a child logger whether or not anything is logged,
 * which cost about a tenth of the throughput of `GET /v1/users/me`.
 */
/** Each known version by itself, to keep the constant rather than the header's copy of it. */
const KNOWN_VERSIONS = new Map<string, string>(API_VERSIONS.map((version) => [version, version]));

export function requestRecorder(log: Logger, { requests, metrics }: Instruments): ((request: FastifyRequest, reply: FastifyReply) => void) | null {
  const logLines = log.isLevelEnabled('info');
  // Nothing to keep: nothing to run, so turning them off measures what they cost (bench/instruments/).
  if (!metrics.enabled && requests.capacity === 0 && !logLines) return null;
  return (request, reply) => {
    // The plane kept its route's config; elsewhere Fastify builds routeOptions for this one read.
    const route = request.routeConfig?.url ?? request.routeOptions.url ?? null;
    const elapsed = reply.elapsedTime;
    metrics.observeRequest(route ?? 'unmatched', request.method, reply.statusCode, elapsed / 1000);
    const url = request.url;
    // A failed request names its error, so an operator reads why without the client's body.
    const error = answeredError(request);
    // Hosted files too: a player's range requests for a recording show in the console's log.
    if (requests.capacity > 0 && (url.startsWith('/v1/') || url.startsWith('/files/'))) {
      const headers = request.headers;
      const version = headers['notion-version'] ?? headers['service-version'];
      // References only, field by field (src/instruments/requestLog.ts); known versions and
      // unparameterised paths as the constants they equal, which a collection does not copy.
      requests.record(
        request.id,
        Date.now(),
        request.method,
        url === route ? route : url,
        route,
        request.caller?.connectionId ?? null,
        typeof version === 'string' ? (KNOWN_VERSIONS.get(version) ?? version) : null,
        reply.statusCode,
        elapsed,
        error?.code ?? null,
        request.body,
        request.answer,
      );
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
  };
}

import underPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import type { OverloadSettings } from '../config.js';
import { ApiError } from '../errors/registry.js';
import type { Logger } from '../logger.js';
import type { App } from './app.js';

/**
 * Seconds a refused client is told to wait: one sample or two (FOLIO_PRESSURE_SAMPLE_MS, 1 s by
 * default) is when the server next looks again; the SDK retries 529 after Retry-After (FACTS.md §6).
 */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;

/**
 * Probes and the operator's planes are served under pressure too: a load balancer that reads an
 * overloaded instance as dead would restart it, and the operator needs `/metrics` and the admin
 * plane most when the API is refusing work.
 */
function exempt(request: FastifyRequest): boolean {
  const url = request.url;
  return url === '/healthz' || url === '/readyz' || url.startsWith('/metrics') || url.startsWith('/admin/');
}

/**
 * Past the event-loop delay or heap thresholds, a request is answered 529 `service_overload` at
 * once instead of waiting its turn behind the work that is already late (@fastify/under-pressure
 * samples both). Registered on the root, before the planes, so it runs before authentication.
 */
export async function refuseUnderPressure(app: App, settings: OverloadSettings, log: Logger): Promise<void> {
  let warned = false;
  // Starting blocks the loop by design (every route's schemas compiled at once, seconds on a slow
  // machine); the first samples would read that as overload and refuse the first requests.
  let measuredFrom = Infinity;
  app.addHook('onListen', (done) => {
    measuredFrom = Date.now() + 2 * settings.sampleMs;
    done();
  });
  await app.register(underPressure, {
    maxEventLoopDelay: settings.maxEventLoopDelayMs,
    maxHeapUsedBytes: settings.maxHeapBytes,
    sampleInterval: settings.sampleMs,
    retryAfter: OVERLOAD_RETRY_AFTER_SECONDS,
    exposeStatusRoute: false,
    pressureHandler: (request, _reply, type, value) => {
      if (exempt(request)) return undefined;
      if (type === 'eventLoopDelay' && Date.now() < measuredFrom) return undefined;
      if (!warned) {
        // Once per episode, not once per refused request: the log would add to the load.
        warned = true;
        log.warn({ type, value }, 'overloaded: answering 529 service_overload');
        setTimeout(() => (warned = false), settings.sampleMs).unref();
      }
      return Promise.reject(new ApiError('service_overload', undefined, { headers: { 'retry-after': String(OVERLOAD_RETRY_AFTER_SECONDS) } }));
    },
  });
}

import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError, ERROR_REGISTRY, type ErrorCode } from '../errors/registry.js';
import type { FaultTable } from '../instruments/faults.js';

/** The code a fault of each status answers with: the registry's entry for that status. */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  409: 'conflict_error',
  429: 'rate_limited',
  500: 'internal_server_error',
  503: 'service_unavailable',
  504: 'gateway_timeout',
  529: 'service_overload',
};

/**
 * A `/v1` hook that answers as the first matching fault says (src/instruments/faults.ts), after
 * authentication so a fault may aim at one connection, before the body is read. Costs one size
 * check when no fault is set.
 */
export function faultHook(faults: FaultTable) {
  return (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload, done: (error?: Error | null, payload?: RequestPayload) => void): void => {
    if (faults.size === 0 || !request.caller) return done(null, payload);
    const path = request.url.split('?', 1)[0];
    const fault = faults.take({ method: request.method, path, connectionId: request.caller.connectionId });
    if (!fault) return done(null, payload);
    const answer = (): void => {
      if (fault.status === undefined) return done(null, payload);
      if (fault.status === 502) {
        // No code in the service's table answers 502; a proxy in front of it answers so.
        void reply.code(502).type('text/plain; charset=utf-8').send('Bad Gateway');
        return;
      }
      const code = CODE_OF_STATUS[fault.status] ?? 'internal_server_error';
      const headers: Record<string, string> = fault.retry_after !== undefined ? { 'retry-after': String(fault.retry_after) } : {};
      const message =
        code === 'rate_limited' && fault.retry_after !== undefined ? `Please try again in ${fault.retry_after} seconds.` : ERROR_REGISTRY[code].message;
      done(new ApiError(code, message, { headers }));
    };
    if (fault.latency_ms) setTimeout(answer, fault.latency_ms);
    else answer();
  };
}

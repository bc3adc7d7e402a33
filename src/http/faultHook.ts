import type { FastifyReply, FastifyRequest } from 'fastify';
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

type Next = (error?: Error) => void;

/**
 * Answers a `/v1` request as the first matching fault says (src/instruments/faults.ts): called by
 * the plane once the caller is known, so a fault may aim at one connection, before the body is
 * read. Returns false, at the cost of one size check when no fault is set, when none applies and
 * the request goes on as it came.
 */
export function applyFault(faults: FaultTable, request: FastifyRequest, reply: FastifyReply, next: Next): boolean {
  if (faults.size === 0 || !request.caller) return false;
  const fault = faults.take({ method: request.method, path: request.url.split('?', 1)[0], connectionId: request.caller.connectionId });
  if (!fault) return false;
  const answer = (): void => {
    if (fault.status === undefined) return next();
    if (fault.status === 502) {
      // No code in the service's table answers 502; a proxy in front of it answers so.
      void reply.code(502).type('text/plain; charset=utf-8').send('Bad Gateway');
      return;
    }
    const code = CODE_OF_STATUS[fault.status] ?? 'internal_server_error';
    const headers: Record<string, string> = fault.retry_after !== undefined ? { 'retry-after': String(fault.retry_after) } : {};
    const message =
      code === 'rate_limited' && fault.retry_after !== undefined ? `Please try again in ${fault.retry_after} seconds.` : ERROR_REGISTRY[code].message;
    next(new ApiError(code, message, { headers }));
  };
  if (fault.latency_ms) setTimeout(answer, fault.latency_ms);
  else answer();
  return true;
}

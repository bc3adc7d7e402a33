import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../errors/registry.js';

export interface RateLimitSettings {
  /** Average requests per second per connection. */
  rate: number;
  /** Seconds over which the average is kept; the burst is rate × window. */
  windowSeconds: number;
  /** When given, every instance counts in the same budget. */
  redis?: Redis | null;
}

/**
 * Per-connection budgets (rate-limiter-flexible: fixed windows, in memory or shared through
 * Redis). Returns the check to run once a request is authenticated: it resolves when the request
 * may go on and rejects with 429 `rate_limited` and an integer Retry-After otherwise. A Redis
 * outage must not take the API down with it, nor lift the limits: meanwhile each process counts
 * in its own memory (the insurance limiter), so a connection's budget is per process until Redis
 * is back (src/start.ts logs the switch).
 */
export function createRateLimit(settings: RateLimitSettings): (connectionId: string) => Promise<void> {
  const options = { points: Math.max(1, Math.round(settings.rate * settings.windowSeconds)), duration: settings.windowSeconds, keyPrefix: 'folio-rl' };
  const limiter: RateLimiterAbstract = settings.redis
    ? new RateLimiterRedis({ ...options, storeClient: settings.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
  return (connectionId) =>
    limiter.consume(connectionId).then(
      () => undefined,
      (outcome: unknown) => {
        if (!(outcome instanceof RateLimiterRes)) return undefined;
        const retryAfter = Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
        // The message names the wait Retry-After gives: the registry's "a few minutes" told a reader
        // to wait far longer than the ~10 s the header says.
        const wait = `${retryAfter} second${retryAfter === 1 ? '' : 's'}`;
        throw new ApiError('rate_limited', `You have been rate limited. Please try again in ${wait}.`, { headers: { 'retry-after': String(retryAfter) } });
      },
    );
}

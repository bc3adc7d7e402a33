import type { OlderVersionFacts } from './change.js';

/**
 * Facts for older versions, by the response body they go with. Held beside the body rather than
 * in it, so the newest-version body is exactly what is sent, and only looked up when a caller at
 * an older version is answered.
 */
const factsByBody = new WeakMap<object, OlderVersionFacts>();

/** Gives `body` the facts its older shapes need (change.ts OlderVersionFacts); returns the body. */
export function withOlderFacts<T extends object>(body: T, facts: OlderVersionFacts): T {
  factsByBody.set(body, facts);
  return body;
}

export function olderFactsOf(body: unknown): OlderVersionFacts {
  return (body !== null && typeof body === 'object' && factsByBody.get(body)) || {};
}

import { DATE_WINDOWS, RELATIVE_DATES } from './dateOperands.js';

/**
 * Words of a filter whose matches move with the clock alone: relative dates and windows (resolved
 * against the query's clock, dateOperands.ts) and the verification condition (expired or
 * verified as of now, conditions/verification.ts). A new condition that reads `now` when it is
 * compiled must add its word here, or its answers would be kept past the moment they change.
 */
const CLOCK_WORDS = new Set<string>([...RELATIVE_DATES, ...DATE_WINDOWS, 'verification']);

/**
 * Whether a filter (as sent, any shape) holds one of those words anywhere, as a key or a string
 * value. A text condition that happens to compare with "today" counts too: saying yes too often
 * only costs a kept answer (src/storage/answerCache.ts).
 */
export function filterReadsClock(filter: unknown): boolean {
  // A stack, not recursion: the body's depth is bounded by validation, but this walk need not rely on it.
  const stack: unknown[] = [filter];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (CLOCK_WORDS.has(value)) return true;
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (CLOCK_WORDS.has(key)) return true;
        stack.push(inner);
      }
    }
  }
  return false;
}

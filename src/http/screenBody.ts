import { ValidationFailure, type FieldPath } from '../errors/validationFailure.js';

type Refusal = { path: FieldPath; why: 'nul' | 'proto' };

/** The first string (value or key) holding U+0000, or member named __proto__, with its path. */
function findRefused(value: unknown, path: FieldPath): Refusal | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { path, why: 'nul' } : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findRefused(value[i], [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const at = [...path, key];
      if (key.includes('\u0000')) return { path: at, why: 'nul' };
      if (key === '__proto__') return { path: at, why: 'proto' };
      const found = findRefused(child, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Two things in a JSON body are refused up front, naming the field, so that no store or code path
 * meets them:
 * - U+0000: PostgreSQL text cannot hold it and SQLite would store it, so one store would fail with
 *   a 500 where the other succeeds.
 * - a member named `__proto__` (a property, option or schema name): JSON.parse keeps it as a
 *   member, but assigning it to an object sets the prototype instead, so it would vanish without
 *   an error on the way to the store.
 */
export function screenBody(body: unknown): void {
  const found = findRefused(body, []);
  if (found === null) return;
  throw new ValidationFailure(
    found.why === 'nul'
      ? { part: 'body', path: found.path, rule: { name: 'custom', expectation: 'should not contain the character U+0000' }, actual: { value: '…\u0000…' } }
      : { part: 'body', path: found.path, rule: { name: 'not_allowed', reason: '"__proto__" cannot be used as a name' }, actual: null },
  );
}

import { validationError } from '../errors/registry.js';
import { joinPath, pointerToPath } from '../errors/validationMessage.js';

type Refusal = { pointer: string; why: 'nul' | 'proto' };

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The first string (value or key) holding U+0000, or member named __proto__, as a JSON pointer. */
function findRefused(value: unknown, pointer: string): Refusal | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { pointer, why: 'nul' } : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findRefused(value[i], `${pointer}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (key.includes('\u0000')) return { pointer: at, why: 'nul' };
      if (key === '__proto__') return { pointer: at, why: 'proto' };
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
  const found = findRefused(body, '');
  if (found === null) return;
  const path = joinPath('body', pointerToPath(found.pointer));
  throw validationError(
    found.why === 'nul'
      ? `body failed validation: ${path} should not contain the character U+0000, instead was \`"…\\u0000…"\`.`
      : `body failed validation: ${path} should be not present: "__proto__" cannot be used as a name.`,
  );
}

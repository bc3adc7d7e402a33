import { validationError } from '../errors/registry.js';
import { joinPath, pointerToPath } from '../errors/validationMessage.js';

/** Returns the JSON pointer of the first string (value or key) holding U+0000, or null. */
function findNul(value: unknown, pointer: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${pointer}/${i}`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (key.includes('\u0000')) return at;
      const found = findNul(child, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000 and SQLite would store it, so one store would fail with a 500
 * where the other succeeds. Refusing it up front answers the same on both, naming the field.
 */
export function rejectNul(body: unknown): void {
  const pointer = findNul(body, '');
  if (pointer !== null) {
    throw validationError(
      `body failed validation: ${joinPath('body', pointerToPath(pointer))} should not contain the character U+0000, instead was \`"…\\u0000…"\`.`,
    );
  }
}

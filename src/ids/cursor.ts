import { ValidationFailure, type InputPart } from '../errors/validationFailure.js';

/**
 * Cursors are opaque to clients (spec, Versioning rule 5) but structured for us: a scope tag so a
 * cursor from one listing is refused by another, and the keyset position to resume after.
 */
export function encodeCursor(scope: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ s: scope, k: key })).toString('base64url');
}

export function decodeCursor(scope: string, cursor: string, field = 'start_cursor', part: InputPart = 'body'): (string | number)[] {
  // The cursor is shown cut after quoting, without the usual ellipsis: this message predates describeValue.
  const fail = () =>
    new ValidationFailure({
      part,
      path: [field],
      rule: { name: 'custom', expectation: 'should be a cursor returned by this endpoint' },
      actual: { words: `\`${JSON.stringify(cursor).slice(0, 100)}\`` },
    });
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) throw fail();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw fail();
  }
  if (!parsed || typeof parsed !== 'object') throw fail();
  const { s, k } = parsed as { s?: unknown; k?: unknown };
  if (s !== scope || !Array.isArray(k) || k.some((v) => typeof v !== 'string' && typeof v !== 'number')) throw fail();
  return k as (string | number)[];
}

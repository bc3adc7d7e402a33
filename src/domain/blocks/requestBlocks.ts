/**
 * Helpers for the version modules that rewrite blocks (src/versioning/changes/): where blocks sit
 * in request bodies, and renaming a key in place.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** Routes whose body is one block's edit (its type member at the top level). */
export const BLOCK_EDIT_ROUTES: ReadonlySet<string> = new Set(['PATCH /v1/blocks/:block_id']);
/** Routes whose body carries new blocks in `children`. */
export const BLOCK_CHILDREN_ROUTES: ReadonlySet<string> = new Set(['PATCH /v1/blocks/:block_id/children', 'POST /v1/pages']);

/**
 * Calls `fn` on every block of a request body, parents before their children; `fn` may rewrite
 * the block in place, and the walk then descends through whatever members it left.
 */
export function forEachRequestBlock(route: string, body: unknown, fn: (block: Json) => void): void {
  if (!isObject(body)) return;
  if (BLOCK_EDIT_ROUTES.has(route)) {
    fn(body);
    return;
  }
  if (!BLOCK_CHILDREN_ROUTES.has(route)) return;
  const visit = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const block of list) {
      if (!isObject(block)) continue;
      fn(block);
      for (const member of Object.values(block)) if (isObject(member)) visit(member.children);
    }
  };
  visit(body.children);
}

/** Renames `from` to `to` keeping the key's place (clients and tests compare printed bodies). */
export function renameKey(obj: Json, from: string, to: string): Json {
  if (!(from in obj) || to in obj) return obj;
  const out: Json = {};
  for (const [key, value] of Object.entries(obj)) out[key === from ? to : key] = value;
  return out;
}

/** Renames in place, for request bodies that converters mutate. */
export function renameKeyInPlace(obj: Json, from: string, to: string): void {
  if (!(from in obj) || to in obj) return;
  const entries = Object.entries(obj);
  for (const key of Object.keys(obj)) delete obj[key];
  for (const [key, value] of entries) obj[key === from ? to : key] = value;
}

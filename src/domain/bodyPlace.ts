import type { FieldPath } from '../errors/validationFailure.js';

/**
 * A place in a request body, linked to its parent, for walks that look for references anywhere in
 * a body (uploads, custom emojis): no path is copied per level, so depth costs nothing, and the
 * path is built only for the place an error names.
 */
export interface BodyPlace {
  value: unknown;
  key: string | number | null;
  parent: BodyPlace | null;
}

export function pathOf(place: BodyPlace): FieldPath {
  const path: Array<string | number> = [];
  for (let p: BodyPlace | null = place; p !== null && p.key !== null; p = p.parent) path.push(p.key);
  return path.reverse();
}

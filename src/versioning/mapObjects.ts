/**
 * Applies fn to every API object (anything with an `object` field) in a response body, depth
 * first, and returns the body with fn's results in place. Copy on write: what fn left unchanged,
 * and every container above only unchanged values, is returned as it was given, so a change that
 * touches nothing in a long listing allocates nothing (each pending version change walks the whole
 * body). fn must not mutate what it is given: it may be part of the caller's body.
 */
export function mapObjects(body: unknown, fn: (obj: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(body)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < body.length; i++) {
      const item: unknown = body[i];
      const mapped = item !== null && typeof item === 'object' ? mapObjects(item, fn) : item;
      if (mapped !== item && out === null) out = body.slice(0, i);
      out?.push(mapped);
    }
    return out ?? body;
  }
  if (body === null || typeof body !== 'object') return body;
  const record = body as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value === null || typeof value !== 'object') continue;
    const mapped = mapObjects(value, fn);
    if (mapped === value) continue;
    out ??= { ...record };
    out[key] = mapped;
  }
  const result = out ?? record;
  return typeof result.object === 'string' ? fn(result) : result;
}

/** Applies fn to every API object (anything with an `object` field) in a response body, depth first. */
export function mapObjects(body: unknown, fn: (obj: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(body)) return body.map((item) => mapObjects(item, fn));
  if (!body || typeof body !== 'object') return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) out[key] = mapObjects(value, fn);
  return typeof out.object === 'string' ? fn(out) : out;
}

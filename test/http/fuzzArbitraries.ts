/**
 * fast-check arbitraries for test/http/fuzz.test.ts, built from the request schemas of the
 * OpenAPI document the server publishes (itself generated from the routes' schemas, so it is what
 * Fastify validates with): a value the schema allows, mutated now and then into one it does not.
 */
import fc from 'fast-check';

type Json = any;
export type Schema = Record<string, any>;

/** Ids of objects the fuzzed workspace holds, so that generated requests reach past the 404s. */
export interface IdPool {
  all: string[];
  byParam: Record<string, string[]>;
  cursors: string[];
}

/** Values that break something somewhere: types, limits, encodings, names with a meaning. */
export const weirdValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'x'.repeat(2001),
    '%ZZ',
    '__proto__',
    'constructor',
    '\uD800',
    '😀'.repeat(300),
    -0,
    -1,
    0.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    null,
    true,
    [],
    {},
    [null],
    { type: 'page_id' },
    '2026-02-30T25:61:00Z',
    '../../etc/passwd',
    'javascript:alert(1)',
    '00000000-0000-0000-0000-000000000000',
    // Markdown that nests: tab levels past the limit, quotes, emphasis, tags.
    Array.from({ length: 120 }, (_, i) => `${'\t'.repeat(i)}- x`).join('\n'),
    `${'> '.repeat(300)}x`,
    `${'**_'.repeat(200)}x${'_**'.repeat(200)}`,
    `${'<details>\n<summary>t</summary>\n'.repeat(50)}x${'\n</details>'.repeat(50)}`,
  ),
);

/** A string a path parameter or query value may be sent as, valid or not. */
export const weirdString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '%ZZ', '%00', '%E0%A4%A', '..', '%2e%2e', '%2F', 'a'.repeat(1200), 'null', 'undefined', '[]', '{}', '-1', '1e400', '😀'),
);

/**
 * An arbitrary for `schema` (resolving `$ref` in `components`), mutated at each level with
 * probability 1/(mutationWeight + 1). Deep schemas are cut: past `depth` a node is any small JSON.
 */
export function arbitraryFor(schema: Schema | undefined, components: Record<string, Schema>, pool: IdPool, mutationWeight = 12, depth = 0): fc.Arbitrary<Json> {
  const plain = plainArbitrary(schema, components, pool, mutationWeight, depth);
  if (mutationWeight <= 0) return plain;
  return fc.oneof({ weight: mutationWeight, arbitrary: plain }, { weight: 1, arbitrary: weirdValue });
}

function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  let at = schema;
  for (let hops = 0; at && typeof at.$ref === 'string' && hops < 20; hops++) {
    const name = at.$ref.replace('#/components/schemas/', '');
    at = components[name] ?? {};
  }
  return at;
}

function plainArbitrary(raw: Schema | undefined, components: Record<string, Schema>, pool: IdPool, weight: number, depth: number): fc.Arbitrary<Json> {
  if (!raw) return fc.jsonValue({ maxDepth: 1 });
  const schema = resolve(raw, components);
  if (depth > 7) return fc.constantFrom(null, 'x', 1, {}, []);
  const next = (s: Schema | undefined) => arbitraryFor(s, components, pool, weight, depth + 1);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const choices = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(choices) && choices.length > 0) return fc.oneof(...choices.map((c: Schema) => next(c)));
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    // Members of every part, as one object: the parts here are objects that add members.
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf.map((p: Schema) => resolve(p, components))) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return next(merged);
  }
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => next({ ...schema, type: t })));
  switch (type[0]) {
    case 'object':
      return objectArbitrary(schema, next);
    case 'array': {
      const max = Math.min(schema.maxItems ?? 3, 3);
      return fc.array(next(schema.items), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
    }
    case 'string':
      return stringArbitrary(schema, pool);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The required members, and up to three optional ones (block schemas have dozens), sometimes one the schema does not name. */
function objectArbitrary(schema: Schema, next: (s: Schema | undefined) => fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  const required: string[] = (schema.required ?? []).filter((k: string) => k in properties);
  const optional = Object.keys(properties).filter((k) => !required.includes(k));
  const extra = schema.additionalProperties && typeof schema.additionalProperties === 'object' ? schema.additionalProperties : null;
  return fc
    .tuple(fc.subarray(optional, { maxLength: Math.min(3, optional.length) }), fc.boolean(), fc.string({ minLength: 1, maxLength: 12 }))
    .chain(([chosen, addExtra, extraName]) => {
      const keys = [...required, ...chosen];
      const members: Record<string, fc.Arbitrary<Json>> = Object.fromEntries(keys.map((k) => [k, next(properties[k])]));
      if (addExtra && (extra || keys.length === 0)) members[extraName] = next(extra ?? undefined);
      return fc.record(members);
    });
}

function stringArbitrary(schema: Schema, pool: IdPool): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 30, 30);
  const min = Math.min(schema.minLength ?? 0, max);
  if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-9a-fA-F]{8}')) return idArbitrary(pool.all);
  if (schema.format === 'date-time' || (typeof schema.pattern === 'string' && schema.pattern.startsWith('^\\d{4}')))
    return fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  return fc.string({ minLength: min, maxLength: max });
}

/** Mostly an id the workspace holds (dashed or not), sometimes a random one. */
export function idArbitrary(ids: readonly string[]): fc.Arbitrary<string> {
  const known = ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid();
  return fc.oneof({ weight: 6, arbitrary: known }, { weight: 1, arbitrary: known.map((id) => id.replace(/-/g, '')) }, { weight: 2, arbitrary: fc.uuid() });
}

/** A `start_cursor`: one a listing returned, one of those damaged, or bytes that only look like one. */
export function cursorArbitrary(pool: IdPool): fc.Arbitrary<string> {
  const real = pool.cursors.length > 0 ? fc.constantFrom(...pool.cursors) : fc.uuid();
  return fc.oneof(
    real,
    fc
      .tuple(real, fc.nat(), fc.string({ minLength: 1, maxLength: 1 }))
      .map(([c, at, ch]) => `${c.slice(0, at % (c.length + 1))}${ch}${c.slice((at % (c.length + 1)) + 1)}`),
    fc.tuple(real, fc.nat()).map(([c, n]) => c.slice(0, n % (c.length + 1))),
    fc.uint8Array({ maxLength: 120 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
    fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64url')),
    fc.constant(Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`).toString('base64url')),
    weirdString,
  );
}

/**
 * Mutations of valid request bodies, as fast-check arbitraries. A mutation names the JSON path it
 * touched, so the check can ask that the server's validation message names the same field.
 */
import fc from 'fast-check';

type Json = any;
export type Path = (string | number)[];

export type Mutation =
  | { op: 'replace'; path: Path; value: unknown }
  | { op: 'delete'; path: Path }
  | { op: 'insert'; path: Path; key: string; value: unknown }
  | { op: 'rename'; path: Path; key: string }
  | { op: 'grow'; path: Path; count: number }
  | { op: 'swap'; path: Path; from: string; to: string; mode: 'both' | 'type' | 'member' }
  | { op: 'long'; path: Path; length: number; unit: string };

/** Where a mutation's effect is: a message may name any of these paths (a rename removes one key and adds another). */
export function touchedPaths(m: Mutation): Path[] {
  if (m.op === 'insert') return [[...m.path, m.key]];
  if (m.op === 'rename') return [m.path, [...m.path.slice(0, -1), m.key]];
  if (m.op === 'swap') return m.mode === 'type' ? [[...m.path, 'type']] : [[...m.path, m.to], [...m.path, m.from], m.path];
  return [m.path];
}

/** Type names that discriminate a union somewhere in the bodies (blocks, rich text, properties, parents…). */
export const DISCRIMINATORS = [
  // blocks
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'heading_4',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'toggle',
  'quote',
  'callout',
  'code',
  'divider',
  'equation',
  'image',
  'video',
  'file',
  'pdf',
  'bookmark',
  'embed',
  'table',
  'table_row',
  'column_list',
  'column',
  'synced_block',
  'link_to_page',
  'table_of_contents',
  'breadcrumb',
  'child_page',
  'child_database',
  'meeting_notes',
  'transcription',
  'unsupported',
  // rich text and mentions
  'text',
  'mention',
  'user',
  'page',
  'database',
  'data_source',
  'date',
  'link_preview',
  'template_mention',
  'custom_emoji',
  // property types
  'title',
  'rich_text',
  'number',
  'select',
  'multi_select',
  'status',
  'people',
  'files',
  'checkbox',
  'url',
  'email',
  'phone_number',
  'formula',
  'relation',
  'rollup',
  'created_time',
  'created_by',
  'last_edited_time',
  'last_edited_by',
  'unique_id',
  'verification',
  'button',
  'place',
  // parents, icons, files, positions, relations
  'page_id',
  'database_id',
  'data_source_id',
  'block_id',
  'workspace',
  'emoji',
  'external',
  'file_upload',
  'icon',
  'after_block',
  'start',
  'end',
  'single_property',
  'dual_property',
] as const;
const DISCRIMINATOR_SET: ReadonlySet<string> = new Set(DISCRIMINATORS);

interface Node {
  path: Path;
  value: unknown;
}

function walk(value: unknown, path: Path, out: Node[]): Node[] {
  out.push({ path, value });
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i], out));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k], out);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deeply nested value: `[[[…]]]` or `{"a":{"a":…}}`, `depth` levels. */
function nest(depth: number, kind: 'array' | 'object'): unknown {
  let v: unknown = kind === 'array' ? [] : {};
  for (let i = 0; i < depth; i++) v = kind === 'array' ? [v] : { a: v };
  return v;
}

/** Values of every JSON type and many awkward strings; `ids` are real ids of the workspace, of the wrong kind. */
export function weirdValue(ids: readonly string[]): fc.Arbitrary<unknown> {
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...AWKWARD) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 3 }) },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...ids) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 2,
      arbitrary: fc
        .record({ length: fc.integer({ min: 2001, max: 10_000 }), unit: fc.constantFrom('x', 'é', '😀', ' ', '\n') })
        .map(({ length, unit }) => unit.repeat(length)),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ depth: fc.integer({ min: 20, max: 3000 }), kind: fc.constantFrom('array' as const, 'object' as const) })
        .map(({ depth, kind }) => nest(depth, kind)),
    },
    { weight: 1, arbitrary: fc.integer({ min: 101, max: 700 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))) },
    { weight: 1, arbitrary: fc.integer({ min: 101, max: 300 }).map((n) => Array.from({ length: n }, (_, i) => (i % 2 ? `s${i}` : {}))) },
  );
}

const AWKWARD: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0,
  1.5,
  -2.25,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  '',
  ' ',
  '\t\n',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e309',
  '0x1F',
  'null',
  'true',
  'undefined',
  '[object Object]',
  '__proto__',
  'constructor',
  '2024-02-30',
  '2024-13-01T25:61:00Z',
  '0000-00-00',
  '2024-01-01T10:00:00+25:00',
  '+275760-09-13T00:00:00.000Z',
  '9999-12-31T23:59:59.999+14:00',
  'today',
  'javascript:alert(1)',
  'https://',
  'http://exa mple.com',
  'not a url',
  'a,b',
  '%00',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '😀',
  'e\u0301',
  '\u202eevil',
  '\ufeff',
  "'; drop table objects; --",
  '"quoted"',
  '00000000-0000-0000-0000-000000000000',
  'ffffffffffffffffffffffffffffffff',
  'ffffffff-ffff-ffff-ffff-fffffffffffg',
  {},
  [],
  [null],
  [{}],
  [[]],
  { type: 'text' },
  { type: 'text', text: {} },
  { '': '' },
  { id: null },
  { name: null },
];

/** Strings that keep a string field a string: the body may stay valid and reach the store. */
export function weirdString(): fc.Arbitrary<string> {
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
  return fc.oneof(
    fc.constantFrom(...AWKWARD.filter((v): v is string => typeof v === 'string')),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 3 }),
    fc.string({ unit: fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '\\', '%', '_', "'", '"'), minLength: 1, maxLength: 8 }),
    // At the limits: 2,000 characters counted in code points, but 4,000 UTF-16 units.
    fc.constantFrom('x'.repeat(2000), '😀'.repeat(2000), 'é'.repeat(2000), 'x'.repeat(1999) + '😀'),
  );
}

/** Numbers that keep a number field a number. */
export function weirdNumber(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(0, -0, -1, 0.1, 1e-7, 1e21, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 100_000, 100_001),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
  );
}

/** Keys an inserted member may have: schema words (in the wrong place), prototype names, odd text. */
export function keyArb(allowArchived: boolean): fc.Arbitrary<string> {
  const words = [
    'bogus',
    'type',
    'object',
    'id',
    'name',
    '',
    ' ',
    'Type',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'children',
    'rich_text',
    'text',
    'paragraph',
    'title',
    'properties',
    'data_source_id',
    'database_id',
    'page_id',
    'after',
    'position',
    'content',
    'annotations',
    'href',
    'plain_text',
    'link',
    'url',
    'color',
    'icon',
    'cover',
    'format',
    'options',
    'expression',
    'description',
    'mention',
    '😀',
    'a.b',
    'a[0]',
    '$ref',
    'Name',
    'Price',
    ...(allowArchived ? ['archived'] : []),
  ];
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...words) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) });
}

/** The mutations that apply to `body`, weighted towards the ones that find most. */
export function mutationArb(body: Json, values: fc.Arbitrary<unknown>, keys: fc.Arbitrary<string>): fc.Arbitrary<Mutation> {
  const nodes = walk(body, [], []);
  const inner = nodes.filter((n) => n.path.length > 0);
  const objects = nodes.filter((n) => isObject(n.value));
  const arrays = nodes.filter((n) => Array.isArray(n.value));
  const strings = inner.filter((n) => typeof n.value === 'string');
  const keyed = inner.filter((n) => typeof n.path[n.path.length - 1] === 'string');
  const numbers = inner.filter((n) => typeof n.value === 'number');
  const typed = objects.flatMap((n) => {
    const obj = n.value as Record<string, unknown>;
    const members = Object.keys(obj).filter((k) => DISCRIMINATOR_SET.has(k));
    const type = typeof obj.type === 'string' ? obj.type : undefined;
    const from = type && members.includes(type) ? type : members.length === 1 ? members[0] : undefined;
    return from ? [{ path: n.path, from, hasType: type !== undefined }] : [];
  });
  const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);
  // Most nodes are deep inside rich text; half the picks choose a depth first, so top-level
  // fields (parent, properties, children, position) are mutated often too.
  const pickPath = (list: readonly Node[]) => {
    const byDepth = new Map<number, Path[]>();
    for (const n of list) byDepth.set(n.path.length, [...(byDepth.get(n.path.length) ?? []), n.path]);
    const depths = [...byDepth.keys()];
    return fc.oneof(
      pick(list.map((n) => n.path)),
      pick(depths).chain((d) => pick(byDepth.get(d)!)),
    );
  };
  const options: fc.WeightedArbitrary<Mutation>[] = [
    { weight: 6, arbitrary: fc.record({ op: fc.constant('replace' as const), path: pickPath(inner), value: values }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), path: pickPath(inner) }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), path: pickPath(objects), key: keys, value: values }) },
  ];
  if (strings.length)
    options.push({ weight: 3, arbitrary: fc.record({ op: fc.constant('replace' as const), path: pick(strings.map((n) => n.path)), value: weirdString() }) });
  if (numbers.length)
    options.push({ weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), path: pick(numbers.map((n) => n.path)), value: weirdNumber() }) });
  if (keyed.length) options.push({ weight: 1, arbitrary: fc.record({ op: fc.constant('rename' as const), path: pickPath(keyed), key: keys }) });
  if (arrays.length) {
    options.push({
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('grow' as const), path: pickPath(arrays), count: fc.integer({ min: 101, max: 140 }) }),
    });
  }
  if (typed.length) {
    options.push({
      weight: 3,
      arbitrary: fc
        .record({ target: pick(typed), to: pick(DISCRIMINATORS), mode: fc.constantFrom('both' as const, 'type' as const, 'member' as const) })
        .map(({ target, to, mode }) => ({ op: 'swap' as const, path: target.path, from: target.from, to, mode: target.hasType ? mode : ('member' as const) })),
    });
  }
  if (strings.length) {
    options.push({
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('long' as const),
        path: pick(strings.map((n) => n.path)),
        length: fc.integer({ min: 2001, max: 10_000 }),
        unit: fc.constantFrom('x', 'é', '😀', ' '),
      }),
    });
  }
  // Replacing the whole body is rare but allowed: its message may only name `body`.
  options.push({ weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), path: fc.constant([] as Path), value: values }) });
  return fc.oneof(...options);
}

function parentOf(root: Json, path: Path): { parent: any; key: string | number } | null {
  let node = root;
  for (const seg of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !(seg in node)) return null;
    node = node[seg];
  }
  if (node === null || typeof node !== 'object') return null;
  const key = path[path.length - 1];
  return key in node ? { parent: node, key } : null;
}

function at(root: Json, path: Path): { found: boolean; value: any } {
  let node = root;
  for (const seg of path) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, seg)) return { found: false, value: undefined };
    node = node[seg];
  }
  return { found: true, value: node };
}

/** Sets an own property, `__proto__` included (plain assignment would change the prototype). */
function define(obj: any, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Rebuilds an object with one key renamed in place, so key order (and so which error comes first) is kept. */
function renameKey(obj: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) define(out, k === from ? to : k, v);
  return out;
}

function replaceAt(root: Json, path: Path, value: unknown): Json {
  if (path.length === 0) return value;
  const hit = parentOf(root, path);
  if (!hit) return root;
  if (Array.isArray(hit.parent)) hit.parent[hit.key as number] = value;
  else define(hit.parent, String(hit.key), value);
  return root;
}

/**
 * Applies one mutation to a copy of `body`. Returns null when the mutation no longer applies (an
 * earlier one removed its path), so only effective mutations are recorded.
 */
export function applyMutation(body: Json, m: Mutation): Json | null {
  const target = at(body, m.path);
  if (!target.found) return null;
  switch (m.op) {
    case 'replace':
      return replaceAt(body, m.path, m.value);
    case 'delete': {
      const hit = parentOf(body, m.path);
      if (!hit) return null;
      if (Array.isArray(hit.parent)) hit.parent.splice(hit.key as number, 1);
      else delete hit.parent[hit.key];
      return body;
    }
    case 'insert':
      if (!isObject(target.value)) return null;
      define(target.value, m.key, m.value);
      return body;
    case 'rename': {
      const hit = parentOf(body, m.path);
      if (!hit || Array.isArray(hit.parent) || m.key === hit.key) return null;
      return replaceAt(body, m.path.slice(0, -1), renameKey(hit.parent, String(hit.key), m.key));
    }
    case 'grow': {
      const list = target.value as unknown[];
      if (!Array.isArray(list)) return null;
      const source = list.length ? list : [{}];
      const grown = Array.from({ length: m.count }, (_, i) => JSON.parse(JSON.stringify(source[i % source.length]) ?? 'null'));
      return replaceAt(body, m.path, grown);
    }
    case 'swap': {
      const obj = target.value;
      if (!isObject(obj) || !(m.from in obj) || m.from === m.to) return null;
      let swapped: Record<string, unknown> = obj;
      if (m.mode !== 'type') swapped = renameKey(swapped, m.from, m.to);
      if (m.mode !== 'member' && 'type' in swapped) swapped.type = m.to;
      return replaceAt(body, m.path, swapped);
    }
    case 'long':
      if (typeof target.value !== 'string') return null;
      return replaceAt(body, m.path, m.unit.repeat(m.length));
  }
}

/** A body with every mutation applied that still applies, and the list of those. */
export function mutate(seed: Json, mutations: readonly Mutation[]): { body: Json; applied: Mutation[] } {
  let body = structuredClone(seed);
  const applied: Mutation[] = [];
  for (const m of mutations) {
    const next = applyMutation(body, m);
    if (next === null) continue;
    body = next;
    applied.push(m);
  }
  return { body, applied };
}

/** For reports: long strings and deep or wide values shortened so a counterexample stays readable. */
export function abbreviate(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 80 ? `${JSON.stringify(value.slice(0, 8)).slice(1, -1)}… (${value.length} UTF-16 units)` : value;
  if (depth > 8) return '…(deeper)';
  if (Array.isArray(value)) {
    const head = value.slice(0, 6).map((v) => abbreviate(v, depth + 1));
    return value.length > 6 ? [...head, `… (${value.length} items)`] : head;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries.slice(0, 30)) define(out, k, abbreviate(v, depth + 1));
    if (entries.length > 30) out['…'] = `${entries.length} keys`;
    return out;
  }
  return value;
}

export function describeMutation(m: Mutation): string {
  const where = pathText(m.path);
  switch (m.op) {
    case 'replace':
      return `replace ${where} with ${JSON.stringify(abbreviate(m.value))}`;
    case 'delete':
      return `delete ${where}`;
    case 'insert':
      return `insert ${JSON.stringify(m.key)} = ${JSON.stringify(abbreviate(m.value))} into ${where}`;
    case 'rename':
      return `rename ${where} to ${JSON.stringify(m.key)}`;
    case 'grow':
      return `grow ${where} to ${m.count} items`;
    case 'swap':
      return `swap ${where} ${m.from} → ${m.to} (${m.mode})`;
    case 'long':
      return `lengthen ${where} to ${m.length} × ${JSON.stringify(m.unit)}`;
  }
}

/** `["children", 0, "paragraph"]` → `body.children[0].paragraph`, the server's notation (an empty key is `[""]`, a key starting with `[` is quoted the same way). */
export function pathText(path: Path): string {
  return path.reduce<string>(
    (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : seg === '' || seg.startsWith('[') ? `${acc}[${JSON.stringify(seg)}]` : `${acc}.${seg}`),
    'body',
  );
}

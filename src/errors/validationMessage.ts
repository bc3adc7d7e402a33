import type { ErrorObject } from 'ajv';
import { isBlockSchemaId } from '../schemas/blocks.js';

/** Where a value came from; names the root of the path in messages (FACTS.md §6). */
export type InputPart = 'body' | 'query' | 'path';

/**
 * Appends one key to a relative path. An empty key, or one that starts with `[`, is written
 * quoted in brackets (`[""]`, `["[x"]`): written plainly it would name the parent, or read as an
 * array index (found by test/fuzz).
 */
function appendKey(path: string, key: string): string {
  if (key === '' || key.startsWith('[')) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

/** JSON pointer "/a/0/b" → "a[0].b", the service's path notation. */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : appendKey(acc, seg)), '');
}

export function joinPath(part: InputPart, rel: string): string {
  if (!rel) return part;
  return rel.startsWith('[') ? `${part}${rel}` : `${part}.${rel}`;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return '`undefined`';
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  if (text.length > 200) text = `${text.slice(0, 197)}...`;
  return `\`${text}\``;
}

function quoteList(values: readonly unknown[]): string {
  const quoted = values.map((v) => JSON.stringify(v));
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, or ${quoted[quoted.length - 1]}`;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: '`null`',
};

function typePhrase(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  const words = types.map((t) => TYPE_NAMES[String(t)] ?? String(t));
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/**
 * Picks the error that best explains the failure. Unions (anyOf) report one error per branch;
 * the deepest path is the branch the caller was most likely writing, so it is the useful one.
 */
export function pickError(errors: readonly ErrorObject[]): ErrorObject {
  const concrete = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
  const pool = concrete.length ? concrete : errors;
  const depth = (e: ErrorObject) => {
    const base = e.instancePath.split('/').length;
    return e.keyword === 'required' || e.keyword === 'additionalProperties' ? base + 1 : base;
  };
  // Within the deepest path, a "const"/"enum" mismatch on a discriminator tells less than a type error.
  let best = pool[0];
  for (const e of pool) {
    if (depth(e) > depth(best)) best = e;
  }
  return best;
}

/**
 * A union of literals compiles to `anyOf` of `const`, and Ajv reports one `const` error per branch:
 * the message lists every allowed value, as the service does for an enum (FACTS.md §6).
 */
function allowedConstants(errors: readonly ErrorObject[], instancePath: string): unknown[] {
  const values = errors
    .filter((e) => e.keyword === 'const' && e.instancePath === instancePath)
    .map((e) => (e.params as { allowedValue: unknown }).allowedValue);
  return [...new Set(values)];
}

/** Renders one Ajv error as `body failed validation: body.x should be …, instead was `…`.` */
export function formatValidationError(part: InputPart, errors: readonly ErrorObject[]): string {
  const error = pickError(errors);
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  let path = joinPath(part, at);
  let expectation: string;
  let actual: unknown = error.data;
  switch (error.keyword) {
    case 'required':
      path = joinPath(part, appendKey(at, String(params.missingProperty)));
      expectation = 'should be defined';
      actual = undefined;
      break;
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      path = joinPath(part, appendKey(at, extra));
      const parent = error.parentSchema as { $id?: unknown; properties?: { type?: { enum?: unknown[] } } } | undefined;
      if (isBlockSchemaId(parent?.$id)) {
        // A block's members are named after its type, so an unknown key is an unknown block type.
        const known = parent?.properties?.type?.enum ?? [];
        return `${part} failed validation: ${path} is not a known block type: a block's type should be ${quoteList(known)}, instead was ${describeValue(extra)}.`;
      }
      expectation = 'should be not present';
      actual = error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>)[extra] : undefined;
      break;
    }
    case 'type':
      expectation = `should be ${typePhrase(params.type)}`;
      break;
    case 'enum':
      expectation = `should be ${quoteList(params.allowedValues as unknown[])}`;
      break;
    case 'const':
      expectation = `should be ${quoteList(allowedConstants(errors, error.instancePath))}`;
      break;
    case 'maxLength':
    case 'maxItems':
      path = `${path}.length`;
      expectation = `should be ≤ \`${String(params.limit)}\``;
      actual = Array.isArray(error.data) || typeof error.data === 'string' ? (error.data as string | unknown[]).length : error.data;
      break;
    case 'minLength':
    case 'minItems':
      path = `${path}.length`;
      expectation = `should be ≥ \`${String(params.limit)}\``;
      actual = Array.isArray(error.data) || typeof error.data === 'string' ? (error.data as string | unknown[]).length : error.data;
      break;
    case 'maxProperties':
      expectation = `should have at most ${String(params.limit)} keys`;
      break;
    case 'minProperties':
      expectation = `should have at least ${String(params.limit)} key${params.limit === 1 ? '' : 's'}`;
      break;
    case 'maximum':
      expectation = `should be ≤ \`${String(params.limit)}\``;
      break;
    case 'minimum':
      expectation = `should be ≥ \`${String(params.limit)}\``;
      break;
    case 'exclusiveMaximum':
      expectation = `should be < \`${String(params.limit)}\``;
      break;
    case 'exclusiveMinimum':
      expectation = `should be > \`${String(params.limit)}\``;
      break;
    case 'format':
      expectation = `should be a valid ${String(params.format)}`;
      break;
    case 'pattern':
      expectation = `should match the pattern ${String(params.pattern)}`;
      break;
    case 'not':
      expectation = 'should be not present';
      break;
    default:
      expectation = `should be valid (${error.keyword})`;
  }
  const actualText =
    actual === undefined && error.keyword !== 'required' && error.keyword !== 'additionalProperties' ? describeValue(error.data) : describeValue(actual);
  return `${part} failed validation: ${path} ${expectation}, instead was ${actualText}.`;
}

import { ApiError } from './registry.js';

/**
 * Where a value came from; names the root of the path in messages (FACTS.md §6). The version
 * header's messages name the header the same way (`Notion-Version header failed validation: …`).
 */
export type InputPart = 'body' | 'query' | 'path' | `${string} header`;

/** A field inside one part of the request: keys and array indexes, e.g. `["filter", "and", 3, "date"]`. */
export type FieldPath = readonly (string | number)[];

/** Bounds Ajv and the domain checks state as a number: `should be ≤ …`, `should have at most … keys`. */
type LimitRule = 'max_length' | 'min_length' | 'maximum' | 'minimum' | 'exclusive_maximum' | 'exclusive_minimum' | 'max_properties' | 'min_properties';

/** What the value broke, with the detail the message states; `custom` carries a domain check's own words. */
export type ValidationRule =
  | { readonly name: 'required' }
  | { readonly name: 'not_allowed'; readonly reason?: string }
  | { readonly name: 'type'; readonly types: readonly string[] }
  | { readonly name: 'enum'; readonly allowed: readonly unknown[] }
  | { readonly name: LimitRule; readonly limit: number }
  | { readonly name: 'format'; readonly format: string }
  | { readonly name: 'pattern'; readonly pattern: string }
  | { readonly name: 'custom'; readonly expectation: string };

/**
 * What the caller sent, as the message shows it. Most messages quote the value (`"abc"` in
 * backticks, cut at 200 characters); some write it as bare JSON (`"abc"`) or in words (`larger`),
 * and clients match these messages byte for byte, so each keeps its form. `null`: the message has
 * no "instead was" clause.
 */
export type Actual = { readonly value: unknown } | { readonly json: unknown } | { readonly words: string } | null;

export interface ValidationFailureFields {
  readonly part: InputPart;
  readonly path: FieldPath;
  readonly rule: ValidationRule;
  readonly actual: Actual;
}

/**
 * A request value that failed validation, kept as structure so the version engine can rename its
 * path for older callers (src/versioning/engine.ts); the message is rendered from it in one place.
 */
/** A missing version header keeps its own code (FACTS.md §1); every other failure is `validation_error`. */
type FailureCode = 'validation_error' | 'missing_version';

export class ValidationFailure extends ApiError implements ValidationFailureFields {
  declare readonly code: FailureCode;
  readonly part: InputPart;
  readonly path: FieldPath;
  readonly rule: ValidationRule;
  readonly actual: Actual;

  constructor(fields: ValidationFailureFields, code: FailureCode = 'validation_error') {
    super(code, renderValidationFailure(fields));
    this.part = fields.part;
    this.path = fields.path;
    this.rule = fields.rule;
    this.actual = fields.actual;
  }

  /** The same failure at another path (the field as an older version's caller named it). */
  at(path: FieldPath): ValidationFailure {
    return new ValidationFailure({ part: this.part, path, rule: this.rule, actual: this.actual }, this.code);
  }
}

/** A domain check's failure: `body.x should be <expectation>, instead was `<actual>`.` */
export function invalidField(path: FieldPath, expectation: string, actual: unknown, part: InputPart = 'body'): ValidationFailure {
  return new ValidationFailure({ part, path, rule: { name: 'custom', expectation }, actual: { value: actual } });
}

/** As invalidField, for the older messages that show the value as bare JSON (`"abc"`, no backticks). */
export function invalidFieldBare(path: FieldPath, expectation: string, actual: unknown, part: InputPart = 'body'): ValidationFailure {
  return new ValidationFailure({ part, path, rule: { name: 'custom', expectation }, actual: { json: actual } });
}

/** `body.x should be defined, instead was `undefined`.` */
export function missingField(path: FieldPath, part: InputPart = 'body'): ValidationFailure {
  return new ValidationFailure({ part, path, rule: { name: 'required' }, actual: { value: undefined } });
}

/**
 * Appends one key to a relative path. An empty key, or one that starts with `[`, is written
 * quoted in brackets (`[""]`, `["[x"]`): written plainly it would name the parent, or read as an
 * array index (found by test/fuzz).
 */
function appendKey(path: string, key: string): string {
  if (key === '' || key.startsWith('[')) return `${path}[${JSON.stringify(key)}]`;
  return path ? `${path}.${key}` : key;
}

/** `["children", 0, "paragraph"]` → `children[0].paragraph`, the service's path notation: numbers are indexes, strings keys. */
export function relativePathText(path: FieldPath): string {
  return path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : appendKey(acc, seg)), '');
}

/** `body` + `["x", 0]` → `body.x[0]`. */
export function pathText(part: InputPart, path: FieldPath): string {
  const rel = relativePathText(path);
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

/** `"a"`, `"a" or "b"`, `"a", "b", or "c"`. */
export function quoteList(values: readonly unknown[]): string {
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

function typePhrase(types: readonly string[]): string {
  const words = types.map((t) => TYPE_NAMES[t] ?? t);
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

function expectationOf(rule: ValidationRule): string {
  switch (rule.name) {
    case 'required':
      return 'should be defined';
    case 'not_allowed':
      return rule.reason ? `should be not present: ${rule.reason}` : 'should be not present';
    case 'type':
      return `should be ${typePhrase(rule.types)}`;
    case 'enum':
      return `should be ${quoteList(rule.allowed)}`;
    case 'max_length':
    case 'maximum':
      return `should be ≤ \`${rule.limit}\``;
    case 'min_length':
    case 'minimum':
      return `should be ≥ \`${rule.limit}\``;
    case 'exclusive_maximum':
      return `should be < \`${rule.limit}\``;
    case 'exclusive_minimum':
      return `should be > \`${rule.limit}\``;
    case 'max_properties':
      return `should have at most ${rule.limit} keys`;
    case 'min_properties':
      return `should have at least ${rule.limit} key${rule.limit === 1 ? '' : 's'}`;
    case 'format':
      return `should be a valid ${rule.format}`;
    case 'pattern':
      return `should match the pattern ${rule.pattern}`;
    case 'custom':
      return rule.expectation;
  }
}

function actualText(actual: Actual): string {
  if (actual === null) return '';
  if ('value' in actual) return `, instead was ${describeValue(actual.value)}`;
  if ('json' in actual) return `, instead was ${JSON.stringify(actual.json)}`;
  return `, instead was ${actual.words}`;
}

/**
 * The service's form: `body failed validation: body.x.y should be …, instead was `…`.` (FACTS.md §6).
 * A length rule is stated on the field's `.length`, where the actual value is the length.
 */
export function renderValidationFailure({ part, path, rule, actual }: ValidationFailureFields): string {
  const field = pathText(part, path);
  const named = rule.name === 'max_length' || rule.name === 'min_length' ? `${field}.length` : field;
  return `${part} failed validation: ${named} ${expectationOf(rule)}${actualText(actual)}.`;
}

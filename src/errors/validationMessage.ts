import type { ErrorObject } from 'ajv';
import { quoteList, relativePathText, ValidationFailure, type Actual, type FieldPath, type InputPart, type ValidationRule } from './validationFailure.js';

/**
 * An annotation keyword (Ajv ignores it) marking the schema of one request block, whose members
 * are named after block types: an unknown key there is reported as an unknown block type. The
 * block request schemas (src/domain/blocks/requestSchemas.ts) set it.
 */
export const BLOCK_MEMBERS_KEYWORD = 'x-folio-block-members';

/**
 * JSON pointer "/a/0/b" → `["a", 0, "b"]`. A pointer cannot tell an index from a key of digits;
 * digits are read as an index, as Ajv's messages have always written them (`[n]`).
 */
export function pointerToFieldPath(pointer: string): FieldPath {
  if (!pointer) return [];
  return pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

/** JSON pointer "/a/0/b" → "a[0].b", the service's path notation. */
export function pointerToPath(pointer: string): string {
  return relativePathText(pointerToFieldPath(pointer));
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

const LIMIT_RULES = {
  maxLength: 'max_length',
  maxItems: 'max_length',
  minLength: 'min_length',
  minItems: 'min_length',
  maximum: 'maximum',
  minimum: 'minimum',
  exclusiveMaximum: 'exclusive_maximum',
  exclusiveMinimum: 'exclusive_minimum',
  maxProperties: 'max_properties',
  minProperties: 'min_properties',
} as const;

/** The Ajv error that best explains the failure, as one validation failure within `part`. */
export function validationFailureOf(part: InputPart, errors: readonly ErrorObject[]): ValidationFailure {
  const error = pickError(errors);
  const at = pointerToFieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const data: unknown = error.data;
  const fail = (rule: ValidationRule, actual: Actual = { value: data }, path: FieldPath = at) => new ValidationFailure({ part, path, rule, actual });
  switch (error.keyword) {
    case 'required':
      return fail({ name: 'required' }, { value: undefined }, [...at, String(params.missingProperty)]);
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      const parent = error.parentSchema as { [BLOCK_MEMBERS_KEYWORD]?: unknown; properties?: { type?: { enum?: unknown[] } } } | undefined;
      if (parent?.[BLOCK_MEMBERS_KEYWORD] === true) {
        // A block's members are named after its type, so an unknown key is an unknown block type.
        const known = parent?.properties?.type?.enum ?? [];
        const expectation = `is not a known block type: a block's type should be ${quoteList(known)}`;
        return fail({ name: 'custom', expectation }, { value: extra }, [...at, extra]);
      }
      const value = data && typeof data === 'object' ? (data as Record<string, unknown>)[extra] : undefined;
      return fail({ name: 'not_allowed' }, { value }, [...at, extra]);
    }
    case 'type':
      return fail({ name: 'type', types: (Array.isArray(params.type) ? params.type : [params.type]).map(String) });
    case 'enum':
      return fail({ name: 'enum', allowed: params.allowedValues as unknown[] });
    case 'const':
      return fail({ name: 'enum', allowed: allowedConstants(errors, error.instancePath) });
    case 'maxLength':
    case 'maxItems':
    case 'minLength':
    case 'minItems':
      // Stated on the field's `.length`, so the value shown is the length.
      return fail(
        { name: LIMIT_RULES[error.keyword], limit: Number(params.limit) },
        { value: Array.isArray(data) || typeof data === 'string' ? data.length : data },
      );
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
    case 'maxProperties':
    case 'minProperties':
      return fail({ name: LIMIT_RULES[error.keyword], limit: Number(params.limit) });
    case 'format':
      return fail({ name: 'format', format: String(params.format) });
    case 'pattern':
      return fail({ name: 'pattern', pattern: String(params.pattern) });
    case 'not':
      return fail({ name: 'not_allowed' });
    default:
      return fail({ name: 'custom', expectation: `should be valid (${error.keyword})` });
  }
}

/** Renders one Ajv error as `body failed validation: body.x should be …, instead was `…`.` */
export function formatValidationError(part: InputPart, errors: readonly ErrorObject[]): string {
  return validationFailureOf(part, errors).message;
}

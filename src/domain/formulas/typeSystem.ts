import type { FormulaType } from './types.js';

/**
 * Internal type: a FormulaType whose page types may remember the relation
 * property they came from, so `current.prop("x")` can be typed against the
 * related data source's schema.
 */
export type Ty =
  | { kind: 'string' }
  | { kind: 'number' }
  | { kind: 'boolean' }
  | { kind: 'date' }
  | { kind: 'person' }
  | { kind: 'page'; relation?: string }
  | { kind: 'list'; of: Ty }
  | { kind: 'empty' };

export const T = {
  string: { kind: 'string' },
  number: { kind: 'number' },
  boolean: { kind: 'boolean' },
  date: { kind: 'date' },
  person: { kind: 'person' },
  page: { kind: 'page' },
  empty: { kind: 'empty' },
  list: (of: Ty): Ty => ({ kind: 'list', of }),
} as const satisfies Record<string, Ty | ((of: Ty) => Ty)>;

export function typeName(t: Ty): string {
  return t.kind === 'list' ? `list of ${typeName(t.of)}` : t.kind;
}

/**
 * The common type of two branches/items, or null when they cannot mix. Empty
 * mixes with anything because an empty value is a valid value of every type.
 */
export function unify(a: Ty, b: Ty): Ty | null {
  if (a.kind === 'empty') return b;
  if (b.kind === 'empty') return a;
  if (a.kind === 'list' && b.kind === 'list') {
    const of = unify(a.of, b.of);
    return of === null ? null : T.list(of);
  }
  if (a.kind === 'page' && b.kind === 'page') {
    return a.relation === b.relation ? a : T.page;
  }
  return a.kind === b.kind ? a : null;
}

export function elementType(t: Ty): Ty {
  return t.kind === 'list' ? t.of : T.empty;
}

/** Strips internal annotations so callers see exactly the public FormulaType. */
export function publicType(t: Ty): FormulaType {
  if (t.kind === 'list') return { kind: 'list', of: publicType(t.of) };
  return { kind: t.kind };
}

/** Tags page types reachable from a relation property with that property's name. */
export function tagRelation(t: Ty, relation: string): Ty {
  if (t.kind === 'page') return { kind: 'page', relation };
  if (t.kind === 'list') return T.list(tagRelation(t.of, relation));
  return t;
}

export function toTy(t: FormulaType): Ty {
  if (t.kind === 'list') return T.list(toTy(t.of));
  return { kind: t.kind };
}

/** Describes what an argument position accepts, for checking and for error messages. */
export interface TypeSpec {
  readonly describe: string;
  accepts(t: Ty): boolean;
}

function kindSpec(describe: string, ...kinds: Ty['kind'][]): TypeSpec {
  return { describe, accepts: (t) => t.kind === 'empty' || kinds.includes(t.kind) };
}

export const S = {
  any: { describe: 'any value', accepts: () => true } as TypeSpec,
  string: kindSpec('string', 'string'),
  number: kindSpec('number', 'number'),
  boolean: kindSpec('boolean', 'boolean'),
  date: kindSpec('date', 'date'),
  person: kindSpec('person', 'person'),
  list: kindSpec('list', 'list'),
  stringOrList: kindSpec('string or list', 'string', 'list'),
  numberOrString: kindSpec('number or string', 'number', 'string'),
  /** Values that have an obvious text form, accepted where Notion converts to text. */
  textLike: kindSpec('string, number or boolean', 'string', 'number', 'boolean'),
  comparable: kindSpec('number, string, boolean or date', 'number', 'string', 'boolean', 'date'),
  convertible: kindSpec('string, number, boolean or date', 'string', 'number', 'boolean', 'date'),
  numberOrListOfNumbers: {
    describe: 'number or list of numbers',
    accepts: (t: Ty) => t.kind === 'empty' || t.kind === 'number' || (t.kind === 'list' && (t.of.kind === 'number' || t.of.kind === 'empty')),
  } as TypeSpec,
  personOrPeople: {
    describe: 'person or list of people',
    accepts: (t: Ty) => t.kind === 'empty' || t.kind === 'person' || (t.kind === 'list' && (t.of.kind === 'person' || t.of.kind === 'empty')),
  } as TypeSpec,
  pageOrPerson: kindSpec('page or person', 'page', 'person'),
} as const;

import { compileFormula, type CompileResult, type FormulaPropertyInfo, type FormulaType, type PropertyReference } from '../formulas/index.js';
import { parse } from '../formulas/parse.js';
import type { Node } from '../formulas/ast.js';
import { rollupResultKind } from '../rollups/index.js';
import { configOf, type Property, type RelationConfig, type RollupConfig, type Schema } from './schemaTypes.js';

/** Schemas of other data sources, by id, loaded before compiling (relations and rollups reach them). */
export type SchemaLookup = (dataSourceId: string) => Schema | undefined;

export interface CompiledSchema {
  infos: FormulaPropertyInfo[];
  /** Compile result of every formula property, by property id. */
  formulas: Map<string, CompileResult>;
}

const T = {
  string: { kind: 'string' },
  number: { kind: 'number' },
  boolean: { kind: 'boolean' },
  date: { kind: 'date' },
  person: { kind: 'person' },
  page: { kind: 'page' },
  empty: { kind: 'empty' },
} as const satisfies Record<string, FormulaType>;
const listOf = (of: FormulaType): FormulaType => ({ kind: 'list', of });

/** How a property reads inside a formula (the formula language's type of `prop("…")`). */
function plainType(property: Property): FormulaType {
  switch (property.type) {
    case 'number':
    case 'unique_id':
      return T.number;
    case 'checkbox':
      return T.boolean;
    case 'date':
    case 'created_time':
    case 'last_edited_time':
      return T.date;
    case 'multi_select':
    case 'files':
      return listOf(T.string);
    case 'people':
      return listOf(T.person);
    case 'created_by':
    case 'last_edited_by':
      return T.person;
    case 'relation':
      return listOf(T.page);
    default:
      return T.string;
  }
}

/** A name literal of a one-argument prop("…"), found by parsing alone (no schema needed). */
export type OwnReference = Pick<PropertyReference, 'start' | 'end' | 'literal'>;

function collectOwnReferences(node: Node, into: OwnReference[]): void {
  switch (node.kind) {
    case 'list':
      for (const item of node.items) collectOwnReferences(item, into);
      return;
    case 'call': {
      const [only] = node.args;
      if (node.name === 'prop' && node.args.length === 1 && only.kind === 'string') into.push({ start: only.pos, end: only.end, literal: only.value });
      for (const arg of node.args) collectOwnReferences(arg, into);
      return;
    }
    case 'unary':
      collectOwnReferences(node.operand, into);
      return;
    case 'binary':
      collectOwnReferences(node.left, into);
      collectOwnReferences(node.right, into);
      return;
    case 'ternary':
      collectOwnReferences(node.cond, into);
      collectOwnReferences(node.then, into);
      collectOwnReferences(node.otherwise, into);
      return;
    default:
      return;
  }
}

// Dependents are looked up per related page on every write; the same few expressions recur.
const ownReferenceCache = new Map<string, OwnReference[]>();

/**
 * The page's own properties a formula reads with one-argument prop("…"), by parsing: a
 * two-argument read (`current.prop("…")`) is a property of a related page, even when it has the
 * same name. Empty when the expression does not parse (the compiler reports it).
 */
export function ownReferences(expression: string): OwnReference[] {
  let found = ownReferenceCache.get(expression);
  if (found) return found;
  found = [];
  try {
    collectOwnReferences(parse(expression), found);
  } catch {
    found = [];
  }
  if (ownReferenceCache.size >= 1000) ownReferenceCache.clear();
  ownReferenceCache.set(expression, found);
  return found;
}

/** Names a formula reads of its own page; used to order formulas that use formulas. */
export function referencedNames(expression: string): string[] {
  return ownReferences(expression).map((r) => r.literal);
}

/** A string literal of the formula language (its escapes are JSON's, without \b and \f). */
function formulaString(value: string): string {
  let out = '"';
  for (const ch of value) {
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch < ' ') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Replaces the name literals at `references` with `to`, so the formula keeps reading the renamed property. */
export function rewriteReferences(expression: string, references: readonly Pick<PropertyReference, 'start' | 'end'>[], to: string): string {
  let out = expression;
  for (const r of [...references].sort((a, b) => b.start - a.start)) out = out.slice(0, r.start) + formulaString(to) + out.slice(r.end);
  return out;
}

/**
 * Types every property of a schema for the formula language and compiles its formulas, in
 * dependency order so a formula using another formula knows that formula's result type. A cycle
 * is a compile error of every formula on it. Related data sources are typed one level deep.
 */
export function compileSchema(schema: Schema, lookup: SchemaLookup, depth = 0): CompiledSchema {
  const props = Object.values(schema);
  const types = new Map<string, FormulaType>();
  const formulas = new Map<string, CompileResult>();
  const visiting = new Set<string>();

  const related = (relationName: string): FormulaPropertyInfo[] | undefined => {
    if (depth > 0) return undefined;
    const relation = props.find((p) => p.name === relationName && p.type === 'relation');
    const config = relation ? configOf<RelationConfig | undefined>(relation) : undefined;
    const target = config ? lookup(config.data_source_id) : undefined;
    return target ? compileSchema(target, lookup, depth + 1).infos : undefined;
  };

  const infos = (): FormulaPropertyInfo[] => props.map((p) => ({ id: p.id, name: p.name, type: types.get(p.id) ?? T.empty }));

  const typeOf = (property: Property): FormulaType => {
    const known = types.get(property.id);
    if (known) return known;
    if (property.type === 'formula') return compileOne(property);
    if (property.type === 'rollup') return rollupType(property);
    const type = plainType(property);
    types.set(property.id, type);
    return type;
  };

  const rollupType = (property: Property): FormulaType => {
    // A property is configured after its type is set: a schema edit may compile in between.
    const config = configOf<RollupConfig | undefined>(property);
    if (!config) return T.empty;
    const kind = rollupResultKind(config.function);
    let type: FormulaType = kind === 'number' ? T.number : kind === 'date' ? T.date : listOf(T.string);
    if (config.function === 'show_original' || config.function === 'show_unique') {
      const relation = schema[config.relation_property_id];
      const target = relation?.type === 'relation' && relation.relation ? lookup(configOf<RelationConfig>(relation).data_source_id) : undefined;
      const rolled = target?.[config.rollup_property_id];
      const of = rolled && rolled.type !== 'formula' && rolled.type !== 'rollup' ? plainType(rolled) : T.string;
      type = of.kind === 'list' ? of : listOf(of);
    } else if (config.function === 'count_per_group' || config.function === 'percent_per_group') {
      type = listOf(T.number);
    }
    types.set(property.id, type);
    return type;
  };

  const compileOne = (property: Property): FormulaType => {
    const expression = configOf<{ expression?: string } | undefined>(property)?.expression ?? '';
    if (visiting.has(property.id)) {
      formulas.set(property.id, { ok: false, position: 0, message: `Formula ${property.name} refers to itself through other formulas` });
      return T.empty;
    }
    visiting.add(property.id);
    for (const name of referencedNames(expression)) {
      const used = props.find((p) => p.name === name) ?? schema[name];
      if (used && used.id !== property.id && !types.has(used.id)) typeOf(used);
      if (used && used.id === property.id) formulas.set(property.id, { ok: false, position: 0, message: `Formula ${property.name} refers to itself` });
    }
    visiting.delete(property.id);
    const prior = formulas.get(property.id);
    const result =
      prior && !prior.ok
        ? prior
        : expression.trim() === ''
          ? compileFormula('""', infos(), related)
          : compileFormula(
              expression,
              infos().filter((i) => i.id !== property.id),
              related,
            );
    formulas.set(property.id, result);
    const type = result.ok ? result.formula.resultType : T.string;
    types.set(property.id, type);
    return type;
  };

  for (const property of props) typeOf(property);
  return { infos: infos(), formulas };
}

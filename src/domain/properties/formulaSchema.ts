import { compileFormula, type CompileResult, type FormulaPropertyInfo, type FormulaType, type PropertyReference } from '../formulas/index.js';
import { parse } from '../formulas/parse.js';
import type { Node } from '../formulas/ast.js';
import { rollupResultKind } from '../rollups/index.js';
import { PROPERTY_TYPE_DEFINITIONS } from './registry.js';
import { T } from '../formulas/typeSystem.js';
import { configOf, type Property, type RelationConfig, type RollupConfig, type Schema } from './schemaTypes.js';

/** Schemas of other data sources, by id, loaded before compiling (relations and rollups reach them). */
export type SchemaLookup = (dataSourceId: string) => Schema | undefined;

export interface CompiledSchema {
  infos: FormulaPropertyInfo[];
  /** Compile result of every formula property, by property id. */
  formulas: Map<string, CompileResult>;
}

/** How a property reads inside a formula (the formula language's type of `prop("…")`). */
const plainType = (property: Property): FormulaType => PROPERTY_TYPE_DEFINITIONS[property.type].formulaType(property);

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
    let type: FormulaType = kind === 'number' ? T.number : kind === 'date' ? T.date : T.list(T.string);
    if (config.function === 'show_original' || config.function === 'show_unique') {
      const relation = schema[config.relation_property_id];
      const target = relation?.type === 'relation' && relation.relation ? lookup(configOf<RelationConfig>(relation).data_source_id) : undefined;
      const rolled = target?.[config.rollup_property_id];
      // A rolled formula or rollup reads as a string here, as their definitions say.
      const of = rolled ? plainType(rolled) : T.string;
      type = of.kind === 'list' ? of : T.list(of);
    } else if (config.function === 'count_per_group' || config.function === 'percent_per_group') {
      type = T.list(T.number);
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

/** Config member marking a formula or rollup whose value changes with time alone; never presented. */
export interface TimeMark {
  time_dependent?: true;
}

export function isTimeDependent(property: Property | undefined): boolean {
  if (!property || (property.type !== 'formula' && property.type !== 'rollup')) return false;
  return configOf<TimeMark | undefined>(property)?.time_dependent === true;
}

/**
 * Marks the formulas and rollups of a data source whose value changes with time alone: a formula
 * calling now() or today(), a formula reading a marked property of its page or of related pages,
 * a rollup of a marked property (issue 3: computed values are right at every read, so reads
 * recompute these, and only these). Related data sources' marks are read as they are saved, so
 * they must be up to date; `selfId` is this data source, for relations to itself. Returns whether
 * a mark changed.
 */
export function markTimeDependence(schema: Schema, lookup: SchemaLookup, selfId: string): boolean {
  const props = Object.values(schema).filter((p) => (p.type === 'formula' || p.type === 'rollup') && p[p.type] !== undefined);
  if (props.length === 0) return false;
  const compiled = props.some((p) => p.type === 'formula') ? compileSchema(schema, lookup) : undefined;
  const marked = new Set<string>();
  const targetOf = (relation: Property | undefined) =>
    relation?.type === 'relation' && relation.relation ? configOf<RelationConfig>(relation).data_source_id : undefined;
  const markedIn = (sourceId: string | undefined, propertyId: string) =>
    sourceId === selfId ? marked.has(propertyId) : sourceId !== undefined && isTimeDependent(lookup(sourceId)?.[propertyId]);
  const byName = new Map(Object.values(schema).map((p) => [p.name, p]));
  const dependsOnTime = (property: Property): boolean => {
    if (property.type === 'rollup') {
      const config = configOf<RollupConfig>(property);
      return markedIn(targetOf(schema[config.relation_property_id]), config.rollup_property_id);
    }
    const result = compiled?.formulas.get(property.id);
    if (!result?.ok) return false;
    return (
      result.formula.readsClock ||
      result.formula.references.some((r) => (r.relation === null ? marked.has(r.id) : markedIn(targetOf(byName.get(r.relation)), r.id)))
    );
  };
  // Marks spread along references until nothing changes (at most once per property).
  for (let grew = true; grew;) {
    grew = false;
    for (const property of props) {
      if (!marked.has(property.id) && dependsOnTime(property)) {
        marked.add(property.id);
        grew = true;
      }
    }
  }
  let changed = false;
  for (const property of props) {
    const config = configOf<TimeMark>(property);
    if (marked.has(property.id) === (config.time_dependent === true)) continue;
    changed = true;
    if (marked.has(property.id)) config.time_dependent = true;
    else delete config.time_dependent;
  }
  return changed;
}

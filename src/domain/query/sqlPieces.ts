import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../storage/dialect.js';
import type { Property, Schema } from '../properties/schemaTypes.js';

/**
 * The SQL a filter compiles to: boolean expressions over a page row. Every value a caller sent
 * is a bound parameter (Kysely's `sql` tag); the only text spliced in is an alias this compiler
 * made up (`aliasMaker`), never anything read from a request (STYLE.md, "User input never becomes
 * SQL text").
 */
export type Cond = RawBuilder<boolean>;

export const TRUE: Cond = sql<boolean>`1 = 1`;
export const FALSE: Cond = sql<boolean>`1 = 0`;

export const not = (cond: Cond): Cond => sql<boolean>`NOT (${cond})`;

export function all(conds: readonly Cond[]): Cond {
  if (conds.length === 0) return TRUE;
  return sql<boolean>`(${sql.join(conds, sql` AND `)})`;
}

export function any(conds: readonly Cond[]): Cond {
  if (conds.length === 0) return FALSE;
  return sql<boolean>`(${sql.join(conds, sql` OR `)})`;
}

/** A value that is the page row's own column (types/definition.ts `FromPageRow` has this shape). */
export interface RowValue {
  readonly column: 'created_time' | 'last_edited_time' | 'created_by' | 'last_edited_by';
}

/** What a condition is about: one property of the pages of one data source, seen through `page` (an alias of `objects`). */
export interface Target {
  /** The alias of the page row in the statement. */
  page: Alias;
  dataSourceId: string;
  /** Null for the `timestamp` filter, which names no property. */
  property: Property | null;
  /** Set when the value is the page row's own column (timestamps, authors): read there, never from a stored copy. */
  row: RowValue | null;
}

/** An alias made by the compiler: safe to splice, since no request ever writes it. */
export interface Alias {
  readonly name: string;
  readonly ref: RawBuilder<unknown>;
  col(column: string): RawBuilder<unknown>;
}

export type AliasPrefix = 'p' | 'v' | 'i' | 'r' | 's';

/**
 * Makes aliases numbered from 0 for one statement, so the same request always compiles to the
 * same text (and the store's prepared statement is reused). Column names passed to `col` are the
 * compiler's own literals.
 */
export function aliasMaker(): (prefix: AliasPrefix) => Alias {
  let next = 0;
  return (prefix) => {
    const name = `${prefix}${next++}`;
    return { name, ref: sql.raw(name), col: (column) => sql.raw(`${name}.${column}`) };
  };
}

/** What compiling needs besides the tree: the store's dialect, the clock and the caller. */
export interface CompileEnv {
  dialect: Dialect;
  /** The query's time: relative dates, windows and verification expiry. */
  now: Date;
  /** The user `me` stands for; null for an internal connection. */
  me: string | null;
  /** Schemas of related data sources (rollup conditions read the rolled-up property there). */
  schemaOf(dataSourceId: string): Schema | undefined;
  /** A fresh alias of this statement. */
  alias(prefix: AliasPrefix): Alias;
}

/**
 * Pages whose stored value of the target's property satisfies `pred` (over the value row `v`).
 * An IN over an uncorrelated subquery: the planner may drive from the value indexes (selective
 * conditions) or scan the data source's pages in order and probe (unselective ones), whichever
 * its statistics favour; a page without a stored value is simply not in the set.
 */
export function valueIn(env: CompileEnv, target: Target, pred: (v: Alias) => Cond): Cond {
  const v = env.alias('v');
  return sql<boolean>`${target.page.col('id')} IN (SELECT ${v.col('page_id')} FROM property_values ${v.ref} WHERE ${v.col('data_source_id')} = ${target.dataSourceId} AND ${v.col('property_id')} = ${target.property!.id} AND ${pred(v)})`;
}

/** Pages whose list value (multi_select names, people, files) holds an item satisfying `pred` (over the item row `i`). */
export function itemIn(env: CompileEnv, target: Target, pred: (i: Alias) => Cond): Cond {
  const i = env.alias('i');
  return sql<boolean>`${target.page.col('id')} IN (SELECT ${i.col('page_id')} FROM property_value_items ${i.ref} WHERE ${i.col('property_id')} = ${target.property!.id} AND ${pred(i)})`;
}

/**
 * Pages relating, through the relation `relationId`, to a page not in the trash that satisfies
 * `pred` (over the related page `r`): a related page in the trash has left the relation, as
 * reading the page shows it (docs/decisions.md).
 */
export function relatedIn(env: CompileEnv, target: Target, relationId: string, pred: (r: Alias) => Cond): Cond {
  const i = env.alias('i');
  const r = env.alias('r');
  return sql<boolean>`${target.page.col('id')} IN (SELECT ${i.col('page_id')} FROM property_value_items ${i.ref} JOIN objects ${r.ref} ON ${r.col('id')} = ${i.col('item')} AND ${r.col('in_trash')} = 0 WHERE ${i.col('property_id')} = ${relationId} AND ${pred(r)})`;
}

/** `values` as bound parameters, for `IN (…)`: lists in filters are short (a few option names). */
export const params = (values: readonly unknown[]): RawBuilder<unknown> => sql.join(values.map((v) => sql`${v}`));

/**
 * A column of the target's stored value, for sorting: a scalar subquery on the value's primary
 * key (page_id, property_id), NULL when the page has no value.
 */
export function storedColumn(env: CompileEnv, target: Target, column: string): RawBuilder<unknown> {
  const v = env.alias('v');
  return sql`(SELECT ${v.col(column)} FROM property_values ${v.ref} WHERE ${v.col('page_id')} = ${target.page.col('id')} AND ${v.col('property_id')} = ${target.property!.id})`;
}

/** The smallest item of a list value (by code point), for sorting lists. */
export function smallestItem(env: CompileEnv, target: Target): RawBuilder<unknown> {
  const i = env.alias('i');
  return sql`(SELECT MIN(${env.dialect.binaryText(i.col('item'))}) FROM property_value_items ${i.ref} WHERE ${i.col('page_id')} = ${target.page.col('id')} AND ${i.col('property_id')} = ${target.property!.id})`;
}

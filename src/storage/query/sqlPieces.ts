import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The SQL a filter compiles to: boolean expressions over a page row. Every value a caller sent
 * is a bound parameter (Kysely's `sql` tag); the only text spliced in is an alias this compiler
 * made up (`aliasMaker`), never anything read from a request (STYLE.md, "User input never becomes
 * SQL text").
 */
export type Cond = RawBuilder<boolean>;

export const TRUE: Cond = sql<boolean>`1 = 1`;
export const FALSE: Cond = sql<boolean>`1 = 0`;

/** Each negation made by `not`, to the condition it negates (negatedOf). */
const negations = new WeakMap<Cond, Cond>();

export const not = (cond: Cond): Cond => {
  const negation = sql<boolean>`NOT (${cond})`;
  negations.set(negation, cond);
  return negation;
};

/** The condition `cond` negates, when `not` made it. */
export const negatedOf = (cond: Cond): Cond | undefined => negations.get(cond);

export function all(conds: readonly Cond[]): Cond {
  if (conds.length === 0) return TRUE;
  return sql<boolean>`(${sql.join(conds, sql` AND `)})`;
}

export function any(conds: readonly Cond[]): Cond {
  if (conds.length === 0) return FALSE;
  return sql<boolean>`(${sql.join(conds, sql` OR `)})`;
}

/**
 * What a piece is about: one property of the pages of one data source, seen through `page` (an
 * alias of `objects`). The filter compiler's Target (domain/query/compileEnv.ts) is this with the
 * whole property and the page row's own columns.
 */
export interface ValueTarget {
  /** The alias of the page row in the statement. */
  page: Alias;
  dataSourceId: string;
  /** Null for the `timestamp` filter, which names no property. */
  property: { readonly id: string } | null;
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

/**
 * What building the pieces needs of the statement: the store's dialect and its aliases. The filter
 * compiler's CompileEnv (domain/query/compileEnv.ts) is this with the clock, the caller and schemas.
 */
export interface SqlEnv {
  dialect: Dialect;
  /** A fresh alias of this statement. */
  alias(prefix: AliasPrefix): Alias;
  /** When given, each positive condition on values is recorded here with the subquery of its pages (see perRow). */
  sets?: Map<Cond, PageSet>;
  /** The alias of the statement's LEFT JOIN of a property's value of `page`, made on first use; undefined for pages it does not join. */
  joinValue?(page: Alias, propertyId: string): Alias | undefined;
}

/**
 * The pages a positive condition holds for, read from an index range: `ids` selects their ids;
 * `rows` selects a constant from the same rows, so counting them reads the index alone (selecting
 * `page_id`, which no value index holds, costs a table lookup per entry: 1 ms for 10,000 on SQLite).
 */
export interface PageSet {
  ids: RawBuilder<unknown>;
  rows: RawBuilder<unknown>;
  /**
   * Set when each row of `rows` is one page of this data source, in the trash or not, and no page
   * has two: a range of property_values (one row per page and property, tagged with the page's
   * data source, rewritten when a page moves). Counting such rows counts pages (countListing).
   */
  pagesOf?: string;
  /**
   * Read by scanning the property's rows for the condition rather than from a range holding only
   * the matches (text `contains`, …): never driven from, since counting it costs what walking
   * costs; counted only to tell a count (countListing).
   */
  scanned?: boolean;
  /**
   * The set's rows whose page is among `pages` (a statement selecting page ids), read from the
   * set's index alone: given when that index ends in page_id (PAGE_KEYED_INDEXES), so each page of
   * `pages` is one seek in it. countListing counts with it the matching pages on the other side of
   * the trash, which otherwise are read page by page.
   */
  among?: (pages: RawBuilder<unknown>) => RawBuilder<unknown>;
}

/**
 * The value indexes whose last column is page_id (migration 018): a set read from one of them
 * tells which pages it holds without reading a value row.
 */
const PAGE_KEYED_INDEXES: ReadonlySet<string> = new Set(['property_values_text']);

/**
 * Each condition on a value is asked per page row: "this page has a value row (or item, or related
 * page) such that …", a lookup on the value's primary key. The statement then walks the data
 * source's pages in the requested order (objects_in_source for the default order) and stops at
 * the page size, whatever share of pages matches; an uncorrelated `IN (subquery)` instead makes
 * SQLite collect and sort every match, and PostgreSQL, which misjudges how many rows match a
 * property and a value together, does the same (docs/benchmarks.md "Queries"). When the matches
 * are few, walking the whole data source is the slow way: each positive condition also records
 * its set of pages (`SqlEnv.sets`), and the query drives from a small one
 * (domain/query/walkOrDrive.ts).
 *
 * The indexes and the plans they give (SQLite's EXPLAIN QUERY PLAN at 100,000 pages; PostgreSQL's
 * are the same shapes):
 * - walking: `SEARCH p USING INDEX objects_in_source (parent_id=? AND in_trash=?)` in creation
 *   order, then per row `SEARCH v EXISTS USING INDEX sqlite_autoindex_property_values_1
 *   (page_id=? AND property_id=?)` (items: the primary key of property_value_items; related
 *   pages: that, then the related page by id);
 * - driving from a set: `SEARCH p USING INDEX sqlite_autoindex_objects_1 (id=?)` over `LIST
 *   SUBQUERY` of the set, then `USE TEMP B-TREE FOR ORDER BY` on the few matches;
 * - a sort led by a number or a date (FilterConditions.sortIndex): `SEARCH s USING INDEX
 *   property_values_number (data_source_id=? AND property_id=? AND number_value>?)` (or
 *   property_values_date), then `SEARCH p USING INDEX sqlite_autoindex_objects_1 (id=?)` and `USE
 *   TEMP B-TREE FOR RIGHT PART OF ORDER BY`: ties of the first key sorted, and the statement stops
 *   at the page size; PostgreSQL scans the same index and sorts incrementally;
 * - the sets, each an index range: select/status names on property_values_text (data_source_id,
 *   property_id, text_value, page_id); numbers on property_values_number; text `equals` on
 *   property_values_folded; dates before a day on property_values_date; list items and related
 *   pages on property_value_items_by_item (property_id, item).
 */
function perRow(env: SqlEnv, subquery: RawBuilder<unknown>, set: PageSet | null): Cond {
  const cond = env.dialect.existsPerRow(subquery) as Cond;
  if (set) env.sets?.set(cond, set);
  return cond;
}

const pageSet = (pageId: RawBuilder<unknown>, rest: RawBuilder<unknown>, pagesOf?: string): PageSet => ({
  ids: sql`SELECT ${pageId} ${rest}`,
  rows: sql`SELECT 1 ${rest}`,
  ...(pagesOf === undefined ? {} : { pagesOf }),
});

/**
 * Whether a condition's set of pages is read from an index range (an equality, or a range of the
 * indexed column): only then is counting it cheap. Counting a set found by scanning (text
 * contains, a date range's end, conditions on related pages) would cost what walking costs.
 */
export type Indexed = 'indexed' | 'scanned';

/**
 * Pages whose stored value of the target's property satisfies `pred` (over the value row `v`).
 * Its set is recorded either way: one row per page of the data source (PageSet.pagesOf), and
 * `scanned` unless `indexed`.
 */
export function valueIn(
  env: SqlEnv,
  target: ValueTarget,
  pred: (v: Alias) => Cond,
  indexed: Indexed = 'scanned',
  /**
   * The index (data_source_id, property_id, column) holding every column `pred` reads, so that the
   * set is read from it alone: SQLite's planner otherwise takes any index with that prefix for a
   * scanned set (it took property_values_bool for text `contains`, reading each value row: 26 ms
   * against 5 ms for 13,051 matches at 100,000 pages).
   */
  index?: string,
): Cond {
  const v = env.alias('v');
  const w = env.alias('v');
  const property = target.property!.id;
  const rows = sql`FROM property_values ${w.ref}${index === undefined ? sql`` : env.dialect.readIndex(index)} WHERE ${w.col('data_source_id')} = ${target.dataSourceId} AND ${w.col('property_id')} = ${property} AND ${pred(w)}`;
  const set = pageSet(w.col('page_id'), rows, target.dataSourceId);
  if (index !== undefined && PAGE_KEYED_INDEXES.has(index)) set.among = (pages) => sql`SELECT 1 ${rows} AND ${w.col('page_id')} IN (${pages})`;
  return perRow(
    env,
    sql`SELECT 1 FROM property_values ${v.ref} WHERE ${v.col('page_id')} = ${target.page.col('id')} AND ${v.col('property_id')} = ${property} AND ${pred(v)}`,
    indexed === 'indexed' ? set : { ...set, scanned: true },
  );
}

/** Pages whose list value (multi_select names, people, files) holds an item satisfying `pred` (over the item row `i`). */
export function itemIn(env: SqlEnv, target: ValueTarget, pred: (i: Alias) => Cond, indexed: Indexed = 'scanned'): Cond {
  const i = env.alias('i');
  const j = env.alias('i');
  const property = target.property!.id;
  return perRow(
    env,
    sql`SELECT 1 FROM property_value_items ${i.ref} WHERE ${i.col('page_id')} = ${target.page.col('id')} AND ${i.col('property_id')} = ${property} AND ${pred(i)}`,
    indexed === 'indexed'
      ? pageSet(j.col('page_id'), sql`FROM property_value_items ${j.ref} WHERE ${j.col('property_id')} = ${property} AND ${pred(j)}`)
      : null,
  );
}

/**
 * Pages relating, through the relation `relationId`, to a page not in the trash that satisfies
 * `pred` (over the related page `r`): a related page in the trash has left the relation, as
 * reading the page shows it (docs/decisions.md).
 */
export function relatedIn(env: SqlEnv, target: ValueTarget, relationId: string, pred: (r: Alias) => Cond, indexed: Indexed = 'scanned'): Cond {
  const [i, r, j, q] = [env.alias('i'), env.alias('r'), env.alias('i'), env.alias('r')];
  return perRow(
    env,
    sql`SELECT 1 FROM property_value_items ${i.ref} JOIN objects ${r.ref} ON ${r.col('id')} = ${i.col('item')} AND ${r.col('in_trash')} = 0 WHERE ${i.col('page_id')} = ${target.page.col('id')} AND ${i.col('property_id')} = ${relationId} AND ${pred(r)}`,
    indexed === 'indexed'
      ? pageSet(
          j.col('page_id'),
          sql`FROM property_value_items ${j.ref} JOIN objects ${q.ref} ON ${q.col('id')} = ${j.col('item')} AND ${q.col('in_trash')} = 0 WHERE ${j.col('property_id')} = ${relationId} AND ${pred(q)}`,
        )
      : null,
  );
}

/** `values` as bound parameters, for `IN (…)`: lists in filters are short (a few option names). */
export const params = (values: readonly unknown[]): RawBuilder<unknown> => sql.join(values.map((v) => sql`${v}`));

/**
 * A column of the target's stored value, for sorting: through the statement's join of the value
 * (`SqlEnv.joinValue`), so the ORDER BY and the cursor's comparison read a column rather than
 * each running a subquery; a scalar subquery on the value's key where no join is offered.
 */
export function storedColumn(env: SqlEnv, target: ValueTarget, column: string): RawBuilder<unknown> {
  const joined = env.joinValue?.(target.page, target.property!.id);
  if (joined) return joined.col(column);
  const v = env.alias('v');
  return sql`(SELECT ${v.col(column)} FROM property_values ${v.ref} WHERE ${v.col('page_id')} = ${target.page.col('id')} AND ${v.col('property_id')} = ${target.property!.id})`;
}

/** The smallest item of a list value (by code point), for sorting lists. */
export function smallestItem(env: SqlEnv, target: ValueTarget): RawBuilder<unknown> {
  const i = env.alias('i');
  return sql`(SELECT MIN(${env.dialect.binaryText(i.col('item'))}) FROM property_value_items ${i.ref} WHERE ${i.col('page_id')} = ${target.page.col('id')} AND ${i.col('property_id')} = ${target.property!.id})`;
}

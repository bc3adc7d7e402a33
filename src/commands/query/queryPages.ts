import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { invalidField } from '../../errors/validationFailure.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { compileSchema, isTimeDependent, type CompiledSchema } from '../../domain/properties/formulaSchema.js';
import { refreshTimeDependent } from '../../domain/properties/refreshTimeDependent.js';
import { configOf, type Property, type RelationConfig, type Schema } from '../../domain/properties/schemaTypes.js';
import { parseFilter, type FilterTree } from '../../domain/query/parseFilter.js';
import { parseSorts, type SortSpec } from '../../domain/query/parseSorts.js';
import { compileFilter } from '../../domain/query/compileFilter.js';
import { dataSourcesRead } from '../../domain/query/dataSourcesRead.js';
import { aliasMaker, FALSE, TRUE, type Alias, type CompileEnv, type Cond, type PageSet } from '../../domain/query/sqlPieces.js';
import { SORT_INDEXES, type SortIndexColumn } from '../../domain/query/conditions/operators.js';
import type { Dialect } from '../../storage/dialect.js';
import type { PageView, QueryView } from '../../domain/views.js';
import type { QueryRequest } from '../../schemas/query.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { loadObjectViews } from '../loadObjectViews.js';
import { parsedSchema } from '../parsedSchemas.js';
import { planCount } from './planCounts.js';

const CURSOR_SCOPE = 'query';
/** FACTS.md §3: a query stops after 10,000 results. */
export const QUERY_RESULT_LIMIT = 10_000;

type Key = string | number | null;

/** One ORDER BY term: its expression (read back for the cursor) and whether it descends. */
interface OrderTerm {
  expr: RawBuilder<unknown>;
  descending: boolean;
  /** Empty values (NULL) sort last; the page row's own columns are never empty. */
  nullable: boolean;
}

/** Schemas of the data source and those its relations reach (two hops: a rollup's rolled-up property may itself be a rollup). */
async function loadSchemas(db: Db, source: ObjectRow, schema: Schema): Promise<Map<string, Schema>> {
  const schemas = new Map<string, Schema>([[source.id, schema]]);
  let frontier = [source.id];
  for (let hop = 0; hop < 2 && frontier.length > 0; hop++) {
    const targets = new Set<string>();
    for (const id of frontier) {
      for (const p of Object.values(schemas.get(id) ?? {})) {
        if (p.type === 'relation') targets.add(configOf<RelationConfig>(p).data_source_id);
      }
    }
    const missing = [...targets].filter((id) => !schemas.has(id));
    for (const row of await findObjects(db, missing)) {
      if (row.object === 'data_source') schemas.set(row.id, parsedSchema(row.id, row.content).schema);
    }
    frontier = missing;
  }
  return schemas;
}

/** A formula's result type as filters key it, from the schema's compiled formulas. */
function formulaResults(schemas: ReadonlyMap<string, Schema>): (property: Property) => 'string' | 'number' | 'checkbox' | 'date' {
  const compiled = new Map<Schema, CompiledSchema>();
  return (property) => {
    const owner = [...schemas.values()].find((s) => s[property.id] === property);
    if (!owner) return 'string';
    let schemaCompiled = compiled.get(owner);
    if (!schemaCompiled) {
      schemaCompiled = compileSchema(owner, (id) => schemas.get(id));
      compiled.set(owner, schemaCompiled);
    }
    const result = schemaCompiled.formulas.get(property.id);
    const kind = result?.ok ? result.formula.resultType.kind : 'string';
    return kind === 'boolean' ? 'checkbox' : kind === 'number' || kind === 'date' ? kind : 'string';
  };
}

/** A cursor continues one listing; its key says which, so a cursor of another filter or order is refused. */
function listingKey(source: ObjectRow, body: QueryRequest): string {
  const parts = {
    source: source.id,
    filter: body.filter ?? null,
    sorts: body.sorts ?? [],
    in_trash: body.in_trash === true,
    result_type: body.result_type ?? 'page',
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

function badCursor(cursor: string, why = 'a cursor returned by this endpoint'): never {
  throw invalidField(['start_cursor'], `should be ${why}`, cursor.slice(0, 100));
}

/**
 * Rows after the cursor's row in the listing's order: the first term that differs decides. Empty
 * values sort last whatever the direction, so "after" a NULL is only a later NULL, and every
 * non-NULL comes before a NULL.
 */
function afterKeys(terms: readonly OrderTerm[], keys: readonly Key[]): Cond {
  let cond: Cond | null = null;
  for (let i = terms.length - 1; i >= 0; i--) {
    const { expr, descending, nullable } = terms[i];
    const key = keys[i];
    const rest: Cond = cond ?? FALSE;
    if (key === null) {
      cond = sql<boolean>`(${expr} IS NULL AND ${rest})`;
      continue;
    }
    const beyond = descending ? sql<boolean>`${expr} < ${key}` : sql<boolean>`${expr} > ${key}`;
    cond = nullable
      ? sql<boolean>`(${expr} IS NULL OR ${beyond} OR (${expr} = ${key} AND ${rest}))`
      : sql<boolean>`(${beyond} OR (${expr} = ${key} AND ${rest}))`;
  }
  return cond ?? TRUE;
}

/**
 * With sorts every match is read and sorted anyway (unless the first sort key is read from its
 * index, see sortedFromIndex), so a much larger set still drives.
 */
const SORTED_DRIVE_LIMIT = 100_000;

/**
 * How far a condition's set is counted before the statement walks instead of driving from it.
 * Walking finds a page of 100 among n matches of N pages after about 100·N/n rows; driving costs
 * about n lookups and a sort of n: they cost alike near n = √(100·N), 3,000 at 100,000 pages and
 * 10,000 at a million. Counting costs up to the limit (0.5 ms for 10,000 entries on SQLite; on
 * PostgreSQL 3–5 ms once vacuum has marked the table all-visible, 30–65 ms on a freshly written
 * one, where each entry's row is visited), so it stops at the crossover of this data source's size,
 * and never beyond MAX_DRIVE_LIMIT. Both counts are remembered for a minute (planCounts.ts).
 * PostgreSQL once stopped at 2,000 for the fresh-table cost: at a million pages a relation holding
 * 3,490 of them then walked, 324 ms against 60–99 ms driven (docs/benchmarks.md, 2026-11-25).
 */
async function walkOrDriveLimit(db: Db, dataSourceId: string): Promise<number> {
  const pages = await planCount(db, sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM objects WHERE parent_id = ${dataSourceId} AND in_trash = 0`);
  return Math.min(MAX_DRIVE_LIMIT, Math.max(MIN_DRIVE_LIMIT, Math.ceil(Math.sqrt(100 * pages))));
}
const MIN_DRIVE_LIMIT = 1000;
const MAX_DRIVE_LIMIT = 10_000;

/**
 * The filter as conditions ANDed into the statement. Conditions are asked per page row as the
 * statement walks the data source in order (sqlPieces.ts); when one of the top-level conjuncts is
 * a positive condition whose set of pages is small (counted up to a limit from its index, one
 * cheap statement), the walk would read the whole data source to find few rows, so that conjunct
 * is asked as `id IN (its set)` instead, and the store starts from the set: the plan is chosen
 * here, from a count, because neither store's planner can tell a rare value of one property from
 * a common one (docs/benchmarks.md "Queries"). `driven` says whether a set was chosen.
 */
async function conjuncts(
  db: Db,
  filter: FilterTree,
  p: Alias,
  source: ObjectRow,
  env: CompileEnv,
  driveLimit: () => Promise<number>,
): Promise<{ conds: Cond[]; driven: boolean }> {
  const items = filter.kind === 'and' ? filter.items : [filter];
  const conds = items.map((item) => compileFilter(item, p, source.id, env));
  let best: { at: number; count: number } | null = null;
  let limit: number | null = null;
  for (const [at, cond] of conds.entries()) {
    const set = env.sets?.get(cond);
    if (!set) continue;
    limit ??= await driveLimit();
    const count = await planCount(db, sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM (${set.rows} LIMIT ${limit}) counted`);
    if (count < limit && (!best || count < best.count)) best = { at, count };
  }
  if (best) conds[best.at] = sql<boolean>`${p.col('id')} IN (${env.sets!.get(conds[best.at])!.ids})`;
  return { conds, driven: best !== null };
}

/** The first sort's value, read from its index in order: the alias of its value row and the column. */
interface IndexedFirstKey {
  value: Alias;
  propertyId: string;
  column: SortIndexColumn;
}

/** The statement's parts shared by both halves of a sort read from an index. */
interface Statement {
  terms: readonly OrderTerm[];
  joins: readonly RawBuilder<unknown>[];
  where: readonly Cond[];
}

function selectPage(
  dialect: Dialect,
  p: Alias,
  { terms, joins, where }: Statement,
  limit: number,
  from: { first: IndexedFirstKey; nulls: boolean; dataSourceId: string } | null,
  withRows: boolean,
): RawBuilder<Record<string, Key>> {
  const select = terms.map((t, i) => sql`${t.expr} AS ${sql.raw(`k${i}`)}`);
  if (withRows) select.push(sql`${p.ref}.*`);
  // Values read in the index's order hold no empty one: no NULLS LAST that the index cannot give.
  const order = terms.map(
    (t, i) =>
      sql`${sql.raw(`k${i}`)} ${sql.raw(t.descending ? 'DESC' : 'ASC')}${sql.raw(t.nullable && !(from && !from.nulls && i === 0) ? ' NULLS LAST' : '')}`,
  );
  let source: RawBuilder<unknown> = sql`objects ${p.ref}`;
  const conds = [...where];
  if (from) {
    const { value, propertyId, column } = from.first;
    const col = value.col(column);
    if (from.nulls) {
      source = sql`objects ${p.ref} LEFT JOIN property_values ${value.ref} ON ${value.col('page_id')} = ${p.col('id')} AND ${value.col('property_id')} = ${propertyId}`;
      conds.push(sql<boolean>`${col} IS NULL`);
    } else {
      // SQLite takes CROSS JOIN as "this table first": left to choose, it walks objects_in_source
      // (an equality on its prefix) and sorts every page. PostgreSQL reads it as an inner join
      // and chooses the order itself (with the LIMIT, the ordered index scan).
      source = sql`property_values ${value.ref}${dialect.readIndex(SORT_INDEXES[column])} CROSS JOIN objects ${p.ref}`;
      conds.unshift(
        sql<boolean>`${value.col('data_source_id')} = ${from.dataSourceId}`,
        sql<boolean>`${value.col('property_id')} = ${propertyId}`,
        sql<boolean>`${col} IS NOT NULL`,
        sql<boolean>`${p.col('id')} = ${value.col('page_id')}`,
      );
    }
  }
  return sql<
    Record<string, Key>
  >`SELECT ${sql.join(select)} FROM ${source}${joins.length ? sql` ${sql.join(joins, sql` `)}` : sql``} WHERE ${sql.join(conds, sql` AND `)} ORDER BY ${sql.join(order)} LIMIT ${limit}`;
}

/**
 * A sort led by a value with an ordering index (`FilterConditions.sortIndex`), in two halves: the
 * pages with a value, read from the index in the sort's order, so the store stops at the page
 * size and sorts only the ties of the first key by the later ones (SQLite: "USE TEMP B-TREE FOR
 * RIGHT PART OF ORDER BY"; PostgreSQL: an incremental sort); then, only when those run out, the
 * pages without one, which sort last and are sorted by the later keys. Sorting the whole data
 * source instead took 340 ms at 100,000 pages (docs/benchmarks.md "query"). A cursor past the
 * first half starts in the second; a cursor in the first starts the index range at its value.
 */
async function sortedFromIndex(
  db: Db,
  dialect: Dialect,
  p: Alias,
  statement: Statement,
  first: IndexedFirstKey,
  dataSourceId: string,
  after: readonly Key[] | null,
  limit: number,
): Promise<Record<string, Key>[]> {
  const rows: Record<string, Key>[] = [];
  if (!after || after[0] !== null) {
    const lead = statement.terms[0];
    const where =
      after === null
        ? statement.where
        : [...statement.where, lead.descending ? sql<boolean>`${lead.expr} <= ${after[0]}` : sql<boolean>`${lead.expr} >= ${after[0]}`];
    const half = { ...statement, where };
    rows.push(...(await selectPage(dialect, p, half, limit, { first, nulls: false, dataSourceId }, true).execute(db)).rows);
  }
  if (rows.length < limit) {
    rows.push(...(await selectPage(dialect, p, statement, limit - rows.length, { first, nulls: true, dataSourceId }, true).execute(db)).rows);
  }
  return rows;
}

/**
 * The pages of one data source that satisfy the filter, in the requested order, one page of
 * results per call (FACTS.md §5; docs/decisions.md "Queries"). The filter and sorts are compiled
 * to one SQL statement that selects the page ids and the sort keys (src/domain/query); the
 * pages are then loaded and presented as search loads them. Cursors are keysets: the last row's
 * sort keys, creation time and id, with the number of results so far for the 10,000 cap.
 */
export async function queryPages(ctx: AppContext, db: Db, caller: Caller, source: ObjectRow, body: QueryRequest): Promise<QueryView> {
  const now = ctx.clock.now();
  const schema = parsedSchema(source.id, source.content).schema;
  const schemas = await loadSchemas(db, source, schema);
  const schemaOf = (id: string) => schemas.get(id);
  const formulaResultOf = formulaResults(schemas);
  const filter: FilterTree | null =
    body.filter === undefined || body.filter === null ? null : parseFilter(body.filter, { dataSourceId: source.id, schema, schemaOf, formulaResultOf, now });
  const sorts: SortSpec[] = parseSorts(body.sorts ?? [], schema);

  const listing = listingKey(source, body);
  let seen = 0;
  let after: Key[] | null = null;
  if (typeof body.start_cursor === 'string') {
    const key = decodeCursor(CURSOR_SCOPE, body.start_cursor);
    const [cursorListing, count, keys] = key;
    if (key.length !== 3 || typeof count !== 'number' || !Number.isInteger(count) || count < 0 || typeof keys !== 'string') badCursor(body.start_cursor);
    if (cursorListing !== listing) badCursor(body.start_cursor, 'a cursor returned for the same data source, filter and sorts');
    try {
      after = JSON.parse(keys) as Key[];
    } catch {
      badCursor(body.start_cursor);
    }
    if (!Array.isArray(after) || after.some((k) => k !== null && typeof k !== 'string' && typeof k !== 'number')) badCursor(body.start_cursor);
    seen = count;
  }
  const pageSize = body.page_size ?? 100;
  const limit = Math.min(pageSize, QUERY_RESULT_LIMIT - seen);
  if (limit <= 0 || body.result_type === 'data_source') return { items: [], nextCursor: null, incomplete: limit <= 0 };

  // Time-dependent values are stored as of `now` before the statement reads them.
  for (const [dataSourceId, propertyIds] of dataSourcesRead(filter, sorts, source.id)) {
    const readSchema = schemas.get(dataSourceId);
    if (readSchema && propertyIds.some((id) => isTimeDependent(readSchema[id]))) {
      await refreshTimeDependent(db, caller.workspaceId, dataSourceId, readSchema, now);
    }
  }

  const joins: RawBuilder<unknown>[] = [];
  const joined = new Map<string, Alias>();
  const sets = new Map<Cond, PageSet>();
  const env: CompileEnv = { dialect: ctx.store.dialect, now, me: caller.userId, schemaOf, alias: aliasMaker(), sets };
  const p: Alias = env.alias('p');
  // A sort led by a value with an ordering index reads pages from that index (sortedFromIndex):
  // that value's row is then the statement's first table rather than a join.
  const lead = sorts[0];
  const leadColumn = lead?.property && lead.family?.sortIndex?.({ page: p, dataSourceId: source.id, property: lead.property, row: lead.row });
  const first: IndexedFirstKey | null = leadColumn ? { value: env.alias('s'), propertyId: lead.property!.id, column: leadColumn } : null;
  if (first) joined.set(first.propertyId, first.value);
  env.joinValue = (page, propertyId) => {
    if (page !== p) return undefined;
    let s = joined.get(propertyId);
    if (!s) {
      s = env.alias('s');
      joined.set(propertyId, s);
      joins.push(sql`LEFT JOIN property_values ${s.ref} ON ${s.col('page_id')} = ${p.col('id')} AND ${s.col('property_id')} = ${propertyId}`);
    }
    return s;
  };
  const terms: OrderTerm[] = [];
  for (const sort of sorts) {
    const target = { page: p, dataSourceId: source.id, property: sort.property, row: sort.row };
    const exprs = sort.family ? sort.family.sortKeys(target, env) : [p.col(sort.row!.column)];
    for (const expr of exprs) terms.push({ expr, descending: sort.descending, nullable: sort.row === null });
  }
  // The tie-break, and the whole order without sorts: creation, then id (docs/decisions.md).
  terms.push({ expr: p.col('created_time'), descending: false, nullable: false }, { expr: p.col('id'), descending: false, nullable: false });
  if (after && after.length !== terms.length) badCursor(body.start_cursor as string);

  const where: Cond[] = [
    // Only pages have a data source as their parent, so the parent alone says which rows are its
    // pages: the walk then reads objects_in_source alone, never the rows it passes over.
    sql<boolean>`${p.col('parent_id')} = ${source.id}`,
    sql<boolean>`${p.col('in_trash')} = ${body.in_trash === true ? 1 : 0}`,
  ];
  let driven = false;
  if (filter) {
    // Read in the sort's order from an index, a page of matches comes as soon as walking finds one.
    const driveLimit = async () => (sorts.length > 0 && !first ? SORTED_DRIVE_LIMIT : walkOrDriveLimit(db, source.id));
    const found = await conjuncts(db, filter, p, source, env, driveLimit);
    where.push(...found.conds);
    driven = found.driven;
  }
  if (after) where.push(afterKeys(terms, after));
  const statement: Statement = { terms, joins, where };
  let rows: Record<string, Key>[];
  // Whole rows come with the keys when the statement reads each result's row anyway (walking in
  // creation order or along a sort's index, SQLite reads a row's table entry only once the row
  // matches); a statement that sorts its matches reads only their keys, and the page's rows after.
  let withRows = true;
  if (first && !driven) {
    rows = await sortedFromIndex(db, env.dialect, p, statement, first, source.id, after, limit + 1);
  } else {
    if (first)
      joins.unshift(
        sql`LEFT JOIN property_values ${first.value.ref} ON ${first.value.col('page_id')} = ${p.col('id')} AND ${first.value.col('property_id')} = ${first.propertyId}`,
      );
    withRows = sorts.length === 0 && !driven;
    rows = (await selectPage(env.dialect, p, statement, limit + 1, null, withRows).execute(db)).rows;
  }

  const taken = rows.slice(0, limit);
  let pageRows: ObjectRow[];
  if (withRows) {
    pageRows = taken as unknown as ObjectRow[];
  } else {
    const ids = taken.map((r) => r[`k${terms.length - 1}`] as string);
    const byId = new Map((await findObjects(db, ids)).map((row) => [row.id, row]));
    pageRows = ids.map((id) => byId.get(id)).filter((row): row is ObjectRow => row?.object === 'page');
  }
  const views = (await loadObjectViews(db, pageRows, now, [source])) as PageView[];
  const more = rows.length > limit;
  const reachedCap = seen + taken.length >= QUERY_RESULT_LIMIT;
  const last = taken[taken.length - 1];
  const nextCursor =
    more && !reachedCap
      ? encodeCursor(CURSOR_SCOPE, [listing, seen + taken.length, JSON.stringify(terms.map((_, i) => (last[`k${i}`] ?? null) as Key))])
      : null;
  return { items: views, nextCursor, incomplete: more && reachedCap };
}

import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf, type Dialect } from '../dialect.js';
import { FALSE, TRUE, type Alias, type Cond, type PageSet } from './sqlPieces.js';

/** A sort key as read back from a result row (`k0`, `k1`, …) and carried in a cursor. */
export type Key = string | number | null;

/** A result row of a listing's statement: the keys `k<i>`, and the page row's columns when asked for. */
export type KeyedRow = Record<string, Key>;

/** One ORDER BY term: its expression (read back for the cursor) and whether it descends. */
export interface OrderTerm {
  expr: RawBuilder<unknown>;
  descending: boolean;
  /** Empty values (NULL) sort last; the page row's own columns are never empty. */
  nullable: boolean;
}

/** The first sort's value, read from its index in order: the alias of its value row, the column and the index ordering it. */
export interface IndexedFirstKey {
  value: Alias;
  propertyId: string;
  column: string;
  /** The index (data_source_id, property_id, column), named for dialect.readIndex. */
  index: string;
}

/** The statement's parts shared by both halves of a sort read from an index. */
export interface Statement {
  terms: readonly OrderTerm[];
  joins: readonly RawBuilder<unknown>[];
  where: readonly Cond[];
}

/** Reading the first sort's value from its index: the pages with a value (`nulls` false) or those without. */
export interface FromIndex {
  first: IndexedFirstKey;
  nulls: boolean;
  dataSourceId: string;
}

/**
 * The pages of one data source, in or out of the trash. Only pages have a data source as their
 * parent, so the parent alone says which rows are its pages: the walk then reads
 * objects_in_source alone, never the rows it passes over.
 */
export function pagesOf(p: Alias, dataSourceId: string, inTrash: boolean): Cond[] {
  return [sql<boolean>`${p.col('parent_id')} = ${dataSourceId}`, sql<boolean>`${p.col('in_trash')} = ${inTrash ? 1 : 0}`];
}

/** `pagesOf` for a statement driven from a set of pages: the parent is checked on each, not walked (Dialect.notThroughIndex). */
export function pagesOfDriven(dialect: Dialect, p: Alias, dataSourceId: string, inTrash: boolean): Cond[] {
  return [sql<boolean>`${dialect.notThroughIndex(p.col('parent_id'))} = ${dataSourceId}`, sql<boolean>`${p.col('in_trash')} = ${inTrash ? 1 : 0}`];
}

/** The statement's LEFT JOIN of the value of `propertyId` of the page `p`, as `s`. */
export function valueJoin(p: Alias, s: Alias, propertyId: string): RawBuilder<unknown> {
  return sql`LEFT JOIN property_values ${s.ref} ON ${s.col('page_id')} = ${p.col('id')} AND ${s.col('property_id')} = ${propertyId}`;
}

/** A condition asked as membership of its set of pages, so the store starts from the set. */
export function idInSet(p: Alias, set: PageSet): Cond {
  return sql<boolean>`${p.col('id')} IN (${set.ids})`;
}

/**
 * Rows after the cursor's row in the listing's order: the first term that differs decides. Empty
 * values sort last whatever the direction, so "after" a NULL is only a later NULL, and every
 * non-NULL comes before a NULL.
 */
export function afterKeys(terms: readonly OrderTerm[], keys: readonly Key[]): Cond {
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

/** The lead term at or beyond the cursor's key: where the index range starts for a cursor in the first half. */
export function fromLeadKey(lead: OrderTerm, key: Key): Cond {
  return lead.descending ? sql<boolean>`${lead.expr} <= ${key}` : sql<boolean>`${lead.expr} >= ${key}`;
}

/**
 * The listing's one statement: the keys `k<i>` (and the page rows when `withRows`), in the terms'
 * order, `limit` rows. With `from`, the first sort's value is read from its index (one half of
 * domain/query/sortPath.ts's read) rather than joined.
 */
export function selectPage(
  dialect: Dialect,
  p: Alias,
  { terms, joins, where }: Statement,
  limit: number,
  from: FromIndex | null,
  withRows: boolean,
): RawBuilder<KeyedRow> {
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
    const { value, propertyId, column, index } = from.first;
    const col = value.col(column);
    if (from.nulls) {
      source = sql`objects ${p.ref} LEFT JOIN property_values ${value.ref} ON ${value.col('page_id')} = ${p.col('id')} AND ${value.col('property_id')} = ${propertyId}`;
      conds.push(sql<boolean>`${col} IS NULL`);
    } else {
      // SQLite takes CROSS JOIN as "this table first": left to choose, it walks objects_in_source
      // (an equality on its prefix) and sorts every page. PostgreSQL reads it as an inner join
      // and chooses the order itself (with the LIMIT, the ordered index scan).
      source = sql`property_values ${value.ref}${dialect.readIndex(index)} CROSS JOIN objects ${p.ref}`;
      conds.unshift(
        sql<boolean>`${value.col('data_source_id')} = ${from.dataSourceId}`,
        sql<boolean>`${value.col('property_id')} = ${propertyId}`,
        sql<boolean>`${col} IS NOT NULL`,
        sql<boolean>`${p.col('id')} = ${value.col('page_id')}`,
      );
    }
  }
  return sql<KeyedRow>`SELECT ${sql.join(select)} FROM ${source}${joins.length ? sql` ${sql.join(joins, sql` `)}` : sql``} WHERE ${sql.join(conds, sql` AND `)} ORDER BY ${sql.join(order)} LIMIT ${dialect.limitCount(limit)}`;
}

/** The pages `where` holds, counted up to `limit`: the statement stops reading at the limit. */
export async function countPagesUpTo(db: Db, p: Alias, where: readonly Cond[], limit: number): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`SELECT COUNT(*) AS n FROM (SELECT 1 FROM objects ${p.ref} WHERE ${sql.join(where, sql` AND `)} LIMIT ${dialectOf(db).limitCount(limit)}) counted`.execute(
    db,
  );
  return Number(rows[0].n);
}

/** The rows of a condition's set, counted up to `limit` now (planCounts.ts countSetUpTo remembers its count, for plans only). */
export async function countSetRowsUpTo(db: Db, set: PageSet, limit: number): Promise<number> {
  return countRowsUpTo(db, set.rows, limit);
}

/** The rows a statement selects, counted up to `limit`: the statement stops reading at the limit. */
export async function countRowsUpTo(db: Db, statement: RawBuilder<unknown>, limit: number): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM (${statement} LIMIT ${dialectOf(db).limitCount(limit)}) counted`.execute(db);
  return Number(rows[0].n);
}

/** The ids of the pages of one data source, in or out of the trash (pagesOf), read from objects_in_source alone. */
export function pageIdsOf(p: Alias, dataSourceId: string, inTrash: boolean): RawBuilder<unknown> {
  return sql`SELECT ${p.col('id')} FROM objects ${p.ref} WHERE ${sql.join(pagesOf(p, dataSourceId, inTrash), sql` AND `)}`;
}

/**
 * The meeting notes a connection sees: meeting-notes blocks of its workspace, not in the trash,
 * shared with it through themselves or an ancestor (the listing's rows, as pagesOf is a data
 * source's). Read from objects_meeting_notes (migration 011).
 */
export function meetingNotesSeenBy(p: Alias, workspaceId: string, connectionId: string): Cond[] {
  return [
    sql<boolean>`${p.col('type')} = ${'meeting_notes'}`,
    sql<boolean>`${p.col('workspace_id')} = ${workspaceId}`,
    sql<boolean>`${p.col('object')} = ${'block'}`,
    sql<boolean>`${p.col('in_trash')} = 0`,
    sql<boolean>`EXISTS (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id WHERE a.descendant_id = ${p.col('id')} AND g.connection_id = ${connectionId})`,
  ];
}

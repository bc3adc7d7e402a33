/**
 * The eight queries of the query benchmark (issue 12), each twice: the request body Folio gets,
 * and the SQL a person would write by hand for the same page over the same tables, parameterised,
 * following docs/decisions.md "Queries (issue 12)": text compared case-folded (text_folded),
 * option names and ids exactly, a date value as the range [date_start, date_end ?? date_start],
 * relative dates as whole UTC days from now, related pages in the trash left out of relations and
 * rollups, empty values last in sorts, then creation time and id.
 */
import { NOTE_WORD, PROJECTS, TASKS, type DataSourceManifest } from '../../scripts/generateDataSource.js';

/** What the queries name, read from the manifest and the store. */
export interface Fixture {
  manifest: DataSourceManifest;
  /** Property id of a Tasks property by name. */
  task(name: string): string;
  /** Property id of a Projects property by name. */
  project(name: string): string;
  /** A project out of the trash that a few hundredths of a percent of tasks relate to. */
  relatedPageId: string;
  /** The status options of the group "In progress", from the schema. */
  inProgressOptions: string[];
  /** Start (UTC midnight) of the day one week before today, as the server resolves "one_week_ago". */
  oneWeekAgo: string;
}

export type DialectName = 'sqlite' | 'postgres';

/** One ORDER BY key; `nullable` keys put empty values last in both directions. */
export interface SortKey {
  expr: string;
  descending: boolean;
  nullable: boolean;
}

/** A hand-written query: joins and a condition on `o`, a page of Tasks, each with its parameters, and its order. */
export interface HandQuery {
  /**
   * Where the rows are read from first, when not the data source's pages in creation order: a
   * table (its alias CROSS JOINed to `o`, which SQLite takes as "this one first") and its own
   * conditions. Counting the matches ignores it.
   */
  from?: { tables: string; where: string; params: unknown[] };
  joins: string;
  joinParams: unknown[];
  where: string;
  params: unknown[];
  order: SortKey[];
}

export interface QueryCase {
  key: string;
  label: string;
  body(f: Fixture): { filter?: unknown; sorts?: unknown[] };
  sql(f: Fixture, dialect: DialectName): HandQuery;
}

const CREATED: SortKey[] = [
  { expr: 'o.created_time', descending: false, nullable: false },
  { expr: 'o.id', descending: false, nullable: false },
];

/**
 * The page has a row of `subquery` (correlated on `o.id`). PostgreSQL turns EXISTS into a
 * semi-join, which it drives from the value table and then sorts every match whenever it
 * underestimates the condition (it multiplies the selectivity of property_id and of the value as
 * if independent); asked row by row, it walks the data source's pages in creation order
 * (objects_in_source) and stops at the 101st match, as SQLite does with EXISTS.
 */
const exists = (dialect: DialectName, subquery: string) => (dialect === 'postgres' ? `(${subquery} LIMIT 1) IS NOT NULL` : `EXISTS (${subquery})`);
/** The page's value of one property satisfies `test` (a condition on `v`). */
const hasValue = (dialect: DialectName, test: string) =>
  exists(dialect, `SELECT 1 FROM property_values v WHERE v.page_id = o.id AND v.property_id = ? AND ${test}`);
const hasItem = (dialect: DialectName) => exists(dialect, 'SELECT 1 FROM property_value_items i WHERE i.page_id = o.id AND i.property_id = ? AND i.item = ?');

export const CASES: QueryCase[] = [
  {
    key: 'a',
    label: 'select equals',
    body: () => ({ filter: { property: TASKS.select, select: { equals: 'High' } } }),
    sql: (f, dialect) => ({ joins: '', joinParams: [], where: hasValue(dialect, 'v.text_value = ?'), params: [f.task(TASKS.select), 'High'], order: CREATED }),
  },
  {
    key: 'b',
    label: 'and[number >, or[checkbox, multi_select contains]]',
    body: () => ({
      filter: {
        and: [
          { property: TASKS.number, number: { greater_than: 700 } },
          {
            or: [
              { property: TASKS.checkbox, checkbox: { equals: true } },
              { property: TASKS.multiSelect, multi_select: { contains: 'backend' } },
            ],
          },
        ],
      },
    }),
    sql: (f, dialect) => ({
      joins: '',
      joinParams: [],
      where: `${hasValue(dialect, 'v.number_value > ?')} AND (${hasValue(dialect, 'v.bool_value = 1')} OR ${hasItem(dialect)})`,
      params: [f.task(TASKS.number), 700, f.task(TASKS.checkbox), f.task(TASKS.multiSelect), 'backend'],
      order: CREATED,
    }),
  },
  {
    key: 'c',
    label: 'relation contains',
    body: (f) => ({ filter: { property: TASKS.relation, relation: { contains: f.relatedPageId } } }),
    // Few pages hold the item: read them from the item index rather than test every page.
    sql: (f) => ({
      joins: '',
      joinParams: [],
      where: 'o.id IN (SELECT i.page_id FROM property_value_items i WHERE i.item = ? AND i.property_id = ?)',
      params: [f.relatedPageId, f.task(TASKS.relation)],
      order: CREATED,
    }),
  },
  {
    key: 'd',
    label: 'rollup any (select equals)',
    body: () => ({ filter: { property: TASKS.rollup, rollup: { any: { select: { equals: 'Infrastructure' } } } } }),
    // The rollup's elements are the related pages' Category values, pages in the trash left out.
    sql: (f, dialect) => ({
      joins: '',
      joinParams: [],
      where: exists(
        dialect,
        `SELECT 1 FROM property_value_items i
          JOIN objects r ON r.id = i.item AND r.in_trash = 0
          JOIN property_values rv ON rv.page_id = i.item AND rv.property_id = ?
        WHERE i.page_id = o.id AND i.property_id = ? AND rv.text_value = ?`,
      ),
      params: [f.project(PROJECTS.select), f.task(TASKS.relation), 'Infrastructure'],
      order: CREATED,
    }),
  },
  {
    key: 'e',
    label: 'date on_or_after one_week_ago',
    body: () => ({ filter: { property: TASKS.date, date: { on_or_after: 'one_week_ago' } } }),
    // A value is on or after the day when its range ends on it or later.
    sql: (f, dialect) => ({
      joins: '',
      joinParams: [],
      where: hasValue(dialect, 'coalesce(v.date_end, v.date_start) >= ?'),
      params: [f.task(TASKS.date), f.oneWeekAgo],
      order: CREATED,
    }),
  },
  {
    key: 'f',
    label: 'rich_text contains',
    body: () => ({ filter: { property: TASKS.richText, rich_text: { contains: NOTE_WORD } } }),
    sql: (f, dialect) => ({
      joins: '',
      joinParams: [],
      where: hasValue(dialect, dialect === 'sqlite' ? 'instr(v.text_folded, ?) > 0' : 'strpos(v.text_folded, ?) > 0'),
      params: [f.task(TASKS.richText), NOTE_WORD],
      order: CREATED,
    }),
  },
  {
    key: 'g',
    label: 'status equals a group',
    body: () => ({ filter: { property: TASKS.status, status: { equals: 'In progress' } } }),
    sql: (f, dialect) => ({
      joins: '',
      joinParams: [],
      where: hasValue(dialect, `v.text_value IN (${f.inProgressOptions.map(() => '?').join(', ')})`),
      params: [f.task(TASKS.status), ...f.inProgressOptions],
      order: CREATED,
    }),
  },
  {
    key: 'h',
    label: 'no filter, sorts number desc, title asc',
    body: () => ({
      sorts: [
        { property: TASKS.number, direction: 'descending' },
        { property: TASKS.title, direction: 'ascending' },
      ],
    }),
    // Read in order from the number index, as a person who knows the index would write it: the
    // store stops at the page size and sorts only ties. Both measured pages lie among the pages
    // with an estimate (all but ~5 %); the rest would follow, sorted by title (no index orders them).
    sql: (f, dialect) => ({
      from: {
        // SQLite's planner may pick another index with the same prefix and sort everything: it is told.
        tables: `property_values n${dialect === 'sqlite' ? ' INDEXED BY property_values_number' : ''} CROSS JOIN objects o`,
        where: 'n.data_source_id = ? AND n.property_id = ? AND n.number_value IS NOT NULL AND o.id = n.page_id',
        params: [f.manifest.tasks.dataSourceId, f.task(TASKS.number)],
      },
      joins: `LEFT JOIN property_values t ON t.page_id = o.id AND t.property_id = ?`,
      joinParams: [f.task(TASKS.title)],
      where: '1 = 1',
      params: [],
      order: [
        { expr: 'n.number_value', descending: true, nullable: false },
        // Folded text, then the text itself, by code point: PostgreSQL's default collation may follow a locale.
        { expr: dialect === 'postgres' ? 't.text_folded COLLATE "C"' : 't.text_folded', descending: false, nullable: true },
        { expr: dialect === 'postgres' ? 't.text_value COLLATE "C"' : 't.text_value', descending: false, nullable: true },
        ...CREATED,
      ],
    }),
  },
];

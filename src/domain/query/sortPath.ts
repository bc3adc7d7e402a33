import type { Db } from '../../storage/db.js';
import type { Dialect } from '../../storage/dialect.js';
import { fromLeadKey, selectPage, type IndexedFirstKey, type Key, type KeyedRow, type Statement } from '../../storage/query/selectPage.js';
import type { Alias } from '../../storage/query/sqlPieces.js';

/**
 * The order a listing's pages are read in: `creation` without sorts (objects_in_source walks it);
 * `index` when the first sort's value has an ordering index (`FilterConditions.sortIndex`), read
 * in order; `sorted` otherwise, every match read and sorted.
 */
export type ReadOrder = 'creation' | 'index' | 'sorted';

export function readOrder(sorted: boolean, leadIndexed: boolean): ReadOrder {
  return !sorted ? 'creation' : leadIndexed ? 'index' : 'sorted';
}

/**
 * How the statement runs. `halves`: read from the first sort's index in two halves
 * (readFromIndex), whole rows with the keys. Otherwise one statement; `joinLead` when the first
 * sort's value, which would have been the statement's first table, must be joined instead; whole
 * rows come with the keys (`withRows`) only when the statement reads each result's row anyway
 * (walking in creation order, SQLite reads a row's table entry only once the row matches); a
 * statement that sorts its matches reads only their keys, and the page's rows after.
 */
export type SortPath = { halves: true; withRows: true } | { halves: false; joinLead: boolean; withRows: boolean };

/** The path for a listing read in `order`, `driven` when a condition's set of pages drives (walkOrDrive.ts). */
export function sortPath(order: ReadOrder, driven: boolean): SortPath {
  if (order === 'index' && !driven) return { halves: true, withRows: true };
  return { halves: false, joinLead: order === 'index', withRows: order === 'creation' && !driven };
}

/**
 * Which halves of an index read a cursor needs: the pages with a value (from the cursor's first
 * key on, when it has one) unless the cursor is already past them (its first key empty); those
 * without one are read whenever the first half runs out.
 */
export function indexHalves(after: readonly Key[] | null): { valued: boolean; fromKey: Key | undefined } {
  if (after === null) return { valued: true, fromKey: undefined };
  return { valued: after[0] !== null, fromKey: after[0] };
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
export async function readFromIndex(
  db: Db,
  dialect: Dialect,
  p: Alias,
  statement: Statement,
  first: IndexedFirstKey,
  dataSourceId: string,
  after: readonly Key[] | null,
  limit: number,
  withRows = true,
): Promise<KeyedRow[]> {
  const rows: KeyedRow[] = [];
  const { valued, fromKey } = indexHalves(after);
  if (valued) {
    const where = fromKey === undefined ? statement.where : [...statement.where, fromLeadKey(statement.terms[0], fromKey)];
    const half = { ...statement, where };
    rows.push(...(await selectPage(dialect, p, half, limit, { first, nulls: false, dataSourceId }, withRows).execute(db)).rows);
  }
  if (rows.length < limit) {
    rows.push(...(await selectPage(dialect, p, statement, limit - rows.length, { first, nulls: true, dataSourceId }, withRows).execute(db)).rows);
  }
  return rows;
}

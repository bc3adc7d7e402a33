import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from './db.js';
import type { DB } from './schema.js';
import { POSTGRES_SEARCH, SQLITE_SEARCH, type SearchDialect } from './searchDialect.js';
import { literalLimitCount } from './limitCount.js';

/**
 * What differs between the two stores, said in one place (STYLE.md, "Both stores, one test
 * suite"; modelled on pg-boss's src/dialect.ts): one object per database, one member per SQL
 * piece that differs, each saying why the two differ. Repositories, migrations and the filter
 * compiler call the dialect instead of asking which database they are on; dialectOf is the one
 * place in src/ that asks.
 *
 * Adding a piece: add a member to `Dialect` with a comment saying why the stores differ, write it
 * in both POSTGRES and SQLITE (the compiler insists on both), and add a case to
 * test/storage/dialect.test.ts that runs it on the real store (the suite runs on both). A piece
 * that only search needs goes on SearchDialect (searchDialect.ts) instead. A migration whose DDL
 * has no common part lists its statements per store and picks them by `dialectOf(db).name`.
 */

export type DialectName = 'sqlite' | 'postgres';

/** The PostgreSQL notification channel on which writers announce caller changes (callerLookup.ts listens). */
export const CALLER_CHANNEL = 'folio_callers';

export interface Dialect {
  /** Shown in logs and /readyz. */
  readonly name: DialectName;

  /**
   * `expr` as text. PostgreSQL has the `::text` cast; SQLite only the standard CAST (the two
   * spellings are kept as each store's statements were written, so cached plans stay warm).
   */
  textOf(expr: RawBuilder<unknown>): RawBuilder<unknown>;

  /**
   * A signed 64-bit integer parameter from its decimal text (callers check the range). node-postgres
   * sends parameters as text, so PostgreSQL is told the type; better-sqlite3 binds a BigInt as an
   * INTEGER, where a Number would round beyond 2^53.
   */
  int64(text: string): RawBuilder<unknown>;

  /**
   * True when `subquery` (a SELECT) returns a row, tested once per outer row. PostgreSQL turns an
   * EXISTS into a semi-join and, misjudging it, may hash every row of the subquery before the
   * first outer row (seconds on a million pages, search's ordered plan); a scalar subquery stays a
   * per-row test. SQLite always runs EXISTS per row and stops at the first match.
   */
  existsPerRow(subquery: RawBuilder<unknown>): RawBuilder<unknown>;

  /**
   * `column` is one of `values`, the list bound as one parameter, so the statement text (and its
   * prepared plan) is the same whatever the list's length and no list meets a limit on the number
   * of parameters. PostgreSQL has arrays (node-postgres sends a JS array as one); SQLite has none,
   * so the list is JSON text read by json_each. `column` names a column of the server's schema.
   */
  inTextArray(column: string, values: readonly string[]): RawBuilder<boolean>;

  /** The one parameter inTextArray binds for `values`: an argument of a fixed statement (fixedStatement.ts) using inTextList. */
  textList(values: readonly string[]): unknown;

  /** inTextArray with the list already made its parameter (textList), or a placeholder for it. */
  inTextList(column: string, list: unknown): RawBuilder<boolean>;

  /**
   * Appended to the inner SELECT of the one statement that claims a row for work (a job:
   * `UPDATE … WHERE id = (SELECT … claimLock) RETURNING`). PostgreSQL runs claimers concurrently:
   * FOR UPDATE locks the row claimed until commit, and SKIP LOCKED makes the others take the next
   * free row instead of waiting (and, once the first commits, finding it taken and claiming
   * nothing). SQLite runs one writing statement at a time, so the claim is already alone.
   */
  readonly claimLock: RawBuilder<unknown>;

  /**
   * Appended to a SELECT of one row an update is about to rewrite from what it reads (a page's
   * icon beside its cover, a block's members: a PATCH keeps what it does not name). PostgreSQL's
   * READ COMMITTED lets two such updates read the same version and the second undo the first's
   * change (a lost update, test/concurrency/blockWrites.test.ts); FOR UPDATE waits for the other to
   * commit and reads its version. SQLite's writer is alone already (BEGIN IMMEDIATE).
   */
  readonly rowLock: RawBuilder<unknown>;

  /**
   * Runs fn in a transaction that will write. SQLite begins it IMMEDIATE, taking the write lock
   * before the first read: a deferred transaction that reads and then writes must upgrade its
   * read lock, and when another connection wrote meanwhile the upgrade fails at once with
   * SQLITE_BUSY, without waiting on the busy timeout (waiting could not help: its snapshot is
   * stale). PostgreSQL's transactions need no such care; rows are locked as they are claimed.
   */
  writeTransaction<T>(db: Kysely<DB>, fn: (trx: Db) => Promise<T>): Promise<T>;

  /**
   * True when `haystack` contains `needle` (both text, case as given). SQLite has instr(),
   * PostgreSQL strpos(); neither has the other's, and LIKE would need the needle's `%` and `_`
   * escaped. Filters pass case-folded text on both sides.
   */
  containsText(haystack: RawBuilder<unknown>, needle: string): RawBuilder<boolean>;

  /**
   * `expr` compared and ordered by code point. SQLite's default collation is already binary;
   * PostgreSQL's follows the database's locale (en_US orders "a" < "B" and ignores punctuation at
   * first), so sorts would differ between the stores and from a keyset cursor's comparison.
   */
  binaryText(expr: RawBuilder<unknown>): RawBuilder<unknown>;

  /**
   * Written after a table's alias: read that table through `index` (a name from the migrations,
   * never from a request). SQLite's planner may take another index with the same prefix and sort
   * everything where the named one gives the order (a query sorted by a number chose
   * property_values_folded over property_values_number when the statement's text changed
   * slightly: 1 s against 10 ms), so it is told; PostgreSQL has no such hint and costs the
   * LIMIT's ordered scan right.
   */
  readIndex(index: string): RawBuilder<unknown>;

  /**
   * `column` in a condition that must not choose the index the statement reads: SQLite's unary
   * `+`, which its planner reads as "not through an index". A listing driven from a small set of
   * pages (domain/query/walkOrDrive.ts) asks for its data source by parent too, and SQLite, left to
   * choose, walked the data source's pages in order through objects_in_source and tested each
   * against the set: 1,000 pages for 40 matches, twice the primary-key lookups and sort it was
   * driven to. PostgreSQL plans from the set's estimate and needs no hint.
   */
  notThroughIndex(column: RawBuilder<unknown>): RawBuilder<unknown>;

  /**
   * An aggregate joining a group's `expr` texts with `separator` (order unspecified): SQLite's
   * group_concat, PostgreSQL's string_agg (neither store has the other's name).
   */
  joinTexts(expr: RawBuilder<unknown>, separator: string): RawBuilder<string>;

  /** Title search's pieces (searchDialect.ts). */
  readonly search: SearchDialect;

  /**
   * The count of a LIMIT or OFFSET in a statement written as SQL text (a query builder's `.limit()`
   * is compiled alike on SQLite, limitCount.ts). SQLite (3.53, as better-sqlite3 builds it) reads a
   * bound LIMIT while it plans and marks the prepared statement expired whenever that parameter is
   * bound again, so every run of a `… LIMIT ?` statement was prepared anew: a block's containing
   * page took 92 µs against 16 µs with `LIMIT 1` (docs/benchmarks.md, "LIMIT ?"). A literal keeps
   * the statement prepared (one per count used; counts are page sizes and caps). PostgreSQL plans
   * an unnamed statement with its parameters at every run either way.
   */
  limitCount(count: number): RawBuilder<unknown>;

  /**
   * A SELECT of `rows` (each with every one of `columns`) as one JSON parameter, for bulk inserts (fixture imports, resets to a seed): one bound
   * parameter instead of one per value, which Kysely would build and compile thousands of nodes
   * for (a 1,000-page seed: 330 ms against 640 ms on SQLite, docs/benchmarks.md). SQLite reads
   * an array of arrays with json_each; PostgreSQL objects with json_populate_recordset, typed by
   * the table's own row type.
   */
  rowsFromJson(table: string, columns: readonly string[], rows: readonly Record<string, unknown>[]): RawBuilder<unknown>;

  /**
   * A statement that tells every instance that what a token resolves to may have changed, run in
   * the writer's transaction (callerChanges.ts), or null when none is needed. PostgreSQL instances
   * cache callers and hear this through LISTEN (callerLookup.ts), which delivers it at commit and
   * never for a rollback; SQLite's cache checks the file's write stamp instead, which every write
   * already moves.
   */
  readonly callerChangeNotice: RawBuilder<unknown> | null;
}

export const POSTGRES: Dialect = {
  name: 'postgres',
  rowsFromJson: (table, columns, rows) =>
    sql`SELECT ${sql.join(columns.map((c) => sql.id(c)))} FROM json_populate_recordset(NULL::${sql.id(table)}, ${JSON.stringify(rows)}::json)`,
  readIndex: () => sql``,
  notThroughIndex: (column) => column,
  joinTexts: (expr, separator) => sql<string>`string_agg(${expr}, ${separator})`,
  limitCount: (count) => sql`${count}`,
  containsText: (haystack, needle) => sql<boolean>`strpos(${haystack}, ${needle}) > 0`,
  binaryText: (expr) => sql`(${expr} COLLATE "C")`,
  textOf: (expr) => sql`${expr}::text`,
  int64: (text) => sql`${text}::bigint`,
  existsPerRow: (subquery) => sql`(${subquery} LIMIT 1) IS NOT NULL`,
  inTextArray: (column, values) => POSTGRES.inTextList(column, values),
  textList: (values) => values,
  inTextList: (column, list) => sql<boolean>`${sql.ref(column)} = ANY(${list}::text[])`,
  claimLock: sql`FOR UPDATE SKIP LOCKED`,
  rowLock: sql`FOR UPDATE`,
  writeTransaction: (db, fn) => db.transaction().execute(fn),
  search: POSTGRES_SEARCH,
  callerChangeNotice: sql`SELECT pg_notify(${CALLER_CHANNEL}, '')`,
};

export const SQLITE: Dialect = {
  name: 'sqlite',
  rowsFromJson: (_table, columns, rows) =>
    sql`SELECT ${sql.join(columns.map((_c, i) => sql`value ->> ${`$[${i}]`}`))} FROM json_each(${JSON.stringify(rows.map((row) => columns.map((c) => row[c])))})`,
  readIndex: (index) => sql.raw(` INDEXED BY ${index}`),
  notThroughIndex: (column) => sql`+${column}`,
  joinTexts: (expr, separator) => sql<string>`group_concat(${expr}, ${separator})`,
  limitCount: literalLimitCount,
  containsText: (haystack, needle) => sql<boolean>`instr(${haystack}, ${needle}) > 0`,
  binaryText: (expr) => expr,
  textOf: (expr) => sql`CAST(${expr} AS TEXT)`,
  int64: (text) => sql`${BigInt(text)}`,
  existsPerRow: (subquery) => sql`EXISTS (${subquery})`,
  inTextArray: (column, values) => SQLITE.inTextList(column, SQLITE.textList(values)),
  textList: (values) => JSON.stringify(values),
  inTextList: (column, list) => sql<boolean>`${sql.ref(column)} IN (SELECT value FROM json_each(${list}))`,
  claimLock: sql``,
  rowLock: sql``,
  // Kysely begins SQLite transactions DEFERRED; the store has one connection, held here until the
  // transaction ends, so no other statement of this process runs inside it.
  writeTransaction: (db, fn) =>
    db.connection().execute(async (conn) => {
      await sql`BEGIN IMMEDIATE`.execute(conn);
      try {
        const result = await fn(conn);
        await sql`COMMIT`.execute(conn);
        return result;
      } catch (error) {
        await sql`ROLLBACK`.execute(conn);
        throw error;
      }
    }),
  search: SQLITE_SEARCH,
  callerChangeNotice: null,
};

/** The dialect of the database `db` runs on: the one place in src/ that asks which it is. */
export function dialectOf(db: Db): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? POSTGRES : SQLITE;
}

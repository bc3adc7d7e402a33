import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from './db.js';
import type { DB } from './schema.js';
import { foldTitle } from './titleFolding.js';
import { literalLimitCount } from './limitCount.js';

/**
 * The pieces of title search (repositories/search.ts) that differ between the stores, held by the
 * store's Dialect as `dialect.search`. Migration 002 says why the index differs: SQLite has one
 * writer, a snapshot counter and FTS5 trigrams; PostgreSQL concurrent writers, transaction-id
 * snapshots and a pg_trgm GIN index. Most of the rest follows from each planner's habits, as
 * measured on the bench workspace (docs/benchmarks.md).
 */
export interface SearchDialect {
  /**
   * The snapshot a listing's statements read at: the one given, or when none is, PostgreSQL's
   * taken first (a value of its own, pg_current_snapshot). SQLite reads its clock inside the
   * statement instead (snapshotValue): a statement of its own would cost more than the read.
   */
  snapshotForStatements(db: Db, snapshot: string | null): Promise<string | null>;
  /** True when `text` could be a snapshot of this store: cursors are client input. */
  isSnapshot(text: string): boolean;
  /** The snapshot as a SQL value. */
  snapshotValue(snapshot: string | null): RawBuilder<unknown>;
  /** Version `s` was current at the snapshot: a counter range on SQLite, transaction visibility on PostgreSQL. */
  currentAt(snapshot: string | null): RawBuilder<unknown>;
  /**
   * `s.title` holds `query`, case-insensitively. PostgreSQL's lower() folds every letter and the
   * trigram index is on lower(title); `indexable: false` hides the condition from that index (the
   * expression no longer matches it), leaving the ordered scan as the only plan. SQLite's LIKE
   * folds ASCII letters only, so every lower/upper spelling of the query is tried; it is used
   * below the trigram length only (fullTextWalk), so the query has at most two characters.
   */
  titleContains(query: string, indexable: boolean): RawBuilder<unknown>;
  /**
   * How the ordered plan walks the full-text table for `query`, or null to walk `listing` testing
   * titleContains. SQLite's FTS5 streams trigram matches in rowid (= seq) order, so the walk can
   * stop after one page; PostgreSQL's trigram index is chosen by its planner from titleContains.
   */
  fullTextWalk(query: string | null): FullTextWalk | null;
  /**
   * True when so many titles match `query` that walking the sort order beats collecting every
   * match. PostgreSQL's estimate of how many titles match a substring is often off by several
   * times, and when it guesses few it collects every match from the trigram index, testing each
   * one's visibility, before sorting: seconds for a query matching ten thousand titles. Counting
   * up to COMMON_MATCHES through the index is cheap, and settles it. SQLite's full-text walk is
   * already in sort order: never common.
   */
  isCommonQuery(db: Db, query: string): Promise<boolean>;
  /**
   * Titles holding `query` in the whole index (every workspace, version and trash state: an
   * overcount, which only ever keeps the visible-first plan), counted through the trigram index
   * up to `cap`; null when the query is shorter than a trigram and the index cannot count it.
   * Cheap both ways: few matches are few index entries, and many stop at the cap (FTS5 streams
   * its matches; PostgreSQL's planner, expecting many, stops a scan at the LIMIT).
   */
  countMatches(db: Db, query: string, cap: number): Promise<number | null>;
  /**
   * The table the ordered plan walks without full text. SQLite is pinned to the (workspace_id,
   * in_trash, seq) index, walked in sort order; PostgreSQL's planner is steered by settings
   * instead (orderedHits, withPlannerSettings).
   */
  readonly listing: RawBuilder<unknown>;
  /**
   * `sc.title` (search_scope, migration 004) holds `query`. SQLite compares the folded query
   * under LIKE, which agrees with foldTitle for titles without cased letters beyond ASCII; the
   * others (`unsure`) pass and are decided in JavaScript (foldsEveryLetter).
   */
  scopeTitleContains(query: string): RawBuilder<unknown>;
  /** True when the store's title tests fold every letter, so no hit needs deciding in JavaScript. */
  readonly foldsEveryLetter: boolean;
  /**
   * The seqs the connection's grants reach in search_scope, meeting `conditions`. SQLite uses them
   * as an IN list (duplicates do not matter) with grants as the outer loop (CROSS JOIN fixes the
   * order); PostgreSQL joins them (visibleVersions), so one seq reached through two grants is
   * listed once.
   */
  visibleSeqs(connectionId: string, conditions: RawBuilder<unknown>[]): RawBuilder<unknown>;
  /**
   * The index's versions of the visible seqs, in sort order, up to one page. Both stores walk the
   * visible seqs in sort order, looking each up until the page is full: SQLite through the sorted
   * table it builds for an IN list, PostgreSQL through a sorted subquery whose order the join keeps
   * (it hashes an IN list, looking up every seq first).
   */
  visibleVersions(v: VisibleVersions): RawBuilder<unknown>;
  /**
   * Runs a search's statements, telling them whether they may change planner settings. On
   * PostgreSQL they run in a transaction of their own (unless already in one), so the settings
   * stay local to it: no JIT compilation (its cost estimates run high on a million rows, and
   * compiling takes longer than the query), and the ordered walk forced for common queries
   * (orderedHits). SQLite has no such settings.
   */
  withPlannerSettings<T>(db: Db, run: (q: Db, tunePlanner: boolean) => Promise<T>): Promise<T>;
  /** After a bulk load: refresh the planner's statistics; on PostgreSQL vacuum, on SQLite merge the full-text segments. */
  optimize(db: Db): Promise<void>;
}

export interface FullTextWalk {
  from: RawBuilder<unknown>;
  match: RawBuilder<unknown>;
  /** The walk's sort key, for the plan's order and cursor bound. */
  seqColumn: string;
}

export interface VisibleVersions {
  /** From visibleSeqs. */
  visible: RawBuilder<unknown>;
  /** Sort order of the visible seqs (`sc.seq`) and of the versions (`s.seq`). */
  visibleOrder: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  ascendingSeq: boolean;
  /** What a version `s` must be to be listed. */
  listed: RawBuilder<unknown>[];
  snapshotText: RawBuilder<unknown>;
  limit: number;
}

/** Trigram indexes match substrings of at least this many characters; shorter queries scan. */
const TRIGRAM = 3;

/** PostgreSQL: with at least this many titles matching, walking the sort order beats collecting every match. */
const COMMON_MATCHES = 2000;

const INT64_MAX = 2n ** 63n - 1n;

export function isInt64Text(text: string, allowNegative: boolean): boolean {
  if (!(allowNegative ? /^-?\d{1,19}$/ : /^\d{1,19}$/).test(text)) return false;
  const value = BigInt(text);
  return value <= INT64_MAX && value >= -INT64_MAX - 1n;
}

/** `%`, `_` and `\` are literal in a title; they are escaped with `\` (STYLE.md, "User input never becomes SQL text"). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * For SQLite's LIKE, which folds ASCII letters only: every lower/upper spelling of the (at most
 * two-character) query, which is what the trigram index's folding would match.
 */
function sqliteShortQueryPatterns(query: string): string[] {
  let spellings = [''];
  for (const ch of query) {
    const forms = new Set([ch, ch.toLowerCase(), ch.toUpperCase()].filter((f) => [...f].length === 1));
    spellings = spellings.flatMap((prefix) => [...forms].map((f) => prefix + f));
  }
  const unique = new Map(spellings.map((s) => [s.replace(/[A-Z]/g, (c) => c.toLowerCase()), s]));
  return [...unique.values()].map((s) => `%${escapeLike(s)}%`);
}

async function takePostgresSnapshot(db: Db): Promise<string> {
  const { rows } = await sql<{ snapshot: string }>`SELECT pg_current_snapshot()::text AS snapshot`.execute(db);
  const snapshot = rows[0].snapshot;
  // Many concurrent writers make a long list of in-progress ids; "everything before the oldest of
  // them" is an older but equally consistent snapshot that fits in a cursor.
  if (snapshot.length <= 400) return snapshot;
  const xmin = snapshot.slice(0, snapshot.indexOf(':'));
  return `${xmin}:${xmin}:`;
}

/**
 * pg_snapshot's text form, xmin:xmax:xip,…, with the invariants pg_snapshot_in enforces, so a
 * forged cursor is refused here rather than failing inside the query.
 */
function isPgSnapshotText(text: string): boolean {
  const match = /^(\d{1,19}):(\d{1,19}):((?:\d{1,19})(?:,\d{1,19})*)?$/.exec(text);
  if (!match || !isInt64Text(match[1], false) || !isInt64Text(match[2], false)) return false;
  const xmin = BigInt(match[1]);
  const xmax = BigInt(match[2]);
  if (xmin < 1n || xmin > xmax) return false;
  let last = xmin;
  for (const raw of match[3] ? match[3].split(',') : []) {
    if (!isInt64Text(raw, false)) return false;
    const xip = BigInt(raw);
    if (xip < last || xip >= xmax) return false;
    last = xip;
  }
  return true;
}

export const POSTGRES_SEARCH: SearchDialect = {
  snapshotForStatements: async (db, snapshot) => snapshot ?? (await takePostgresSnapshot(db)),
  isSnapshot: isPgSnapshotText,
  snapshotValue: (snapshot) => sql`${snapshot}`,
  currentAt: (snapshot) =>
    sql`pg_visible_in_snapshot(s.added_in, ${snapshot}::pg_snapshot) AND (s.removed_in IS NULL OR NOT pg_visible_in_snapshot(s.removed_in, ${snapshot}::pg_snapshot))`,
  // PostgreSQL's LIKE escapes with `\` by default; SQLite's needs ESCAPE.
  titleContains: (query, indexable) =>
    indexable ? sql`lower(s.title) LIKE lower(${`%${escapeLike(query)}%`})` : sql`(lower(s.title) || '') LIKE lower(${`%${escapeLike(query)}%`})`,
  fullTextWalk: () => null,
  isCommonQuery: async (db, query) => {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT 1 FROM search_index s WHERE ${POSTGRES_SEARCH.titleContains(query, true)} LIMIT ${COMMON_MATCHES}) matching`.execute(db);
    return Number(rows[0].n) >= COMMON_MATCHES;
  },
  countMatches: async (db, query, cap) => {
    if ([...query].length < TRIGRAM) return null;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT 1 FROM search_index s WHERE ${POSTGRES_SEARCH.titleContains(query, true)} LIMIT ${cap}) matching`.execute(db);
    return Number(rows[0].n);
  },
  listing: sql`search_index s`,
  scopeTitleContains: (query) => sql`lower(sc.title) LIKE lower(${`%${escapeLike(query)}%`})`,
  foldsEveryLetter: true,
  visibleSeqs: (connectionId, conditions) => sql`SELECT DISTINCT sc.seq FROM grants g JOIN search_scope sc ON sc.ancestor_id = g.object_id
      WHERE ${sql.join([sql`g.connection_id = ${connectionId}`, ...conditions], sql` AND `)}`,
  visibleVersions: (
    v,
  ) => sql`SELECT c.seq AS hit_key, c.seq::text AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${v.snapshotText} AS hit_snapshot
          FROM (${v.visible} ORDER BY ${v.visibleOrder}) c JOIN search_index s ON s.seq = c.seq
          WHERE ${sql.join(v.listed, sql` AND `)} ORDER BY c.seq ${v.ascendingSeq ? sql`ASC` : sql`DESC`} LIMIT ${v.limit}`,
  withPlannerSettings: (db, run) => {
    if (db.isTransaction) return run(db, false);
    return (db as Kysely<DB>).transaction().execute(async (trx) => {
      await sql`SELECT set_config('jit', 'off', true)`.execute(trx);
      return run(trx, true);
    });
  },
  // VACUUM too: counting a condition's matches from an index skips the table only on pages vacuum
  // has marked all-visible (3–5 ms against 30–65 ms for 10,000 entries of a fresh load), and a
  // bulk load should not wait for autovacuum, which some installations turn off.
  optimize: async (db) => {
    await sql`VACUUM ANALYZE`.execute(db);
  },
};

/** SQLite's snapshot: the given counter value, or the clock now, read inside the statement. */
function sqliteSnapshotValue(snapshot: string | null): RawBuilder<unknown> {
  return snapshot === null ? sql`(SELECT value FROM search_clock WHERE id = 1)` : sql`${Number(snapshot)}`;
}

export const SQLITE_SEARCH: SearchDialect = {
  snapshotForStatements: (_db, snapshot) => Promise.resolve(snapshot),
  isSnapshot: (text) => /^\d{1,15}$/.test(text),
  snapshotValue: sqliteSnapshotValue,
  currentAt: (snapshot) => sql`s.added_in <= ${sqliteSnapshotValue(snapshot)} AND (s.removed_in IS NULL OR s.removed_in > ${sqliteSnapshotValue(snapshot)})`,
  titleContains: (query) =>
    sql`(${sql.join(
      sqliteShortQueryPatterns(query).map((p) => sql`s.title LIKE ${p} ESCAPE '\\'`),
      sql` OR `,
    )})`,
  fullTextWalk: (query) =>
    query === null || [...query].length < TRIGRAM
      ? null
      : {
          // CROSS JOIN fixes the full-text table as the outer loop, so its rowid order is the output order.
          from: sql`search_fts CROSS JOIN search_index s ON s.seq = search_fts.rowid`,
          match: sql`search_fts MATCH ${`"${query.replace(/"/g, '""')}"`}`,
          seqColumn: 'search_fts.rowid',
        },
  isCommonQuery: () => Promise.resolve(false),
  countMatches: async (db, query, cap) => {
    const walk = SQLITE_SEARCH.fullTextWalk(query);
    if (walk === null) return null;
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM search_fts WHERE ${walk.match} LIMIT ${literalLimitCount(cap)})`.execute(
      db,
    );
    return Number(rows[0].n);
  },
  listing: sql`search_index s INDEXED BY search_index_listing`,
  // The folded query: a title without cased letters beyond ASCII matches it under LIKE exactly when under foldTitle.
  scopeTitleContains: (query) => sql`(sc.title LIKE ${`%${escapeLike(foldTitle(query))}%`} ESCAPE '\\' OR sc.unsure = 1)`,
  foldsEveryLetter: false,
  visibleSeqs: (connectionId, conditions) => sql`SELECT sc.seq FROM grants g CROSS JOIN search_scope sc ON sc.ancestor_id = g.object_id
      WHERE ${sql.join([sql`g.connection_id = ${connectionId}`, ...conditions], sql` AND `)}`,
  visibleVersions: (
    v,
  ) => sql`SELECT s.seq AS hit_key, CAST(s.seq AS TEXT) AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${v.snapshotText} AS hit_snapshot FROM search_index s
          WHERE s.seq IN (${v.visible}) AND ${sql.join(v.listed, sql` AND `)} ORDER BY ${v.order} LIMIT ${literalLimitCount(v.limit)}`,
  withPlannerSettings: (db, run) => run(db, false),
  optimize: async (db) => {
    await sql`INSERT INTO search_fts (search_fts) VALUES ('optimize')`.execute(db);
    await sql`ANALYZE`.execute(db);
  },
};

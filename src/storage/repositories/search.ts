import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../db.js';
import type { DB, ObjectRow } from '../schema.js';
import { foldTitle, mayFoldBeyondAscii } from '../titleFolding.js';

/**
 * Title search over `search_index` (migration 002 explains the table, its versions and snapshots).
 *
 * Two plans, because what is expensive depends on how much the connection can see:
 * - ordered: walk the matches in sort order (FTS5 streams them in rowid = seq order; otherwise the
 *   (workspace_id, in_trash, seq) index) and test visibility row by row, stopping after one page.
 *   Its cost is about page size ÷ the fraction of matches the connection can see.
 * - visible first: read what the connection can see from search_scope (migration 004), by each of
 *   its shares in sort order, filter, and stop after one page. Its cost is at most the size of
 *   those subtrees, read as adjacent keys.
 * A connection whose grants reach fewer than VISIBLE_FIRST_BELOW objects (FOLIO_SEARCH_VISIBLE_FIRST_BELOW)
 * gets the second plan, any other the first; both return the same rows.
 */

/**
 * Below this many reachable objects (closure rows of the connection's grants) the visible-first
 * plan is cheaper. Measured on the 1M-page bench workspace (docs/benchmarks.md): a share of 20k
 * objects answered in 3–7 ms visible first against 12–27 ms ordered; at 40k the two were even.
 */
export const VISIBLE_FIRST_BELOW = 30_000;

/** Trigram indexes match substrings of at least this many characters; shorter queries scan. */
const TRIGRAM = 3;

export type SearchDirection = 'ascending' | 'descending';
export type SearchObjectKind = 'page' | 'data_source';

export interface SearchCriteria {
  workspaceId: string;
  connectionId: string;
  /** Substring to find in titles, case-insensitively; null finds every title. */
  query: string | null;
  object: SearchObjectKind | null;
  inTrash: boolean;
  /** Of last_edited_time. */
  direction: SearchDirection;
  /**
   * From takeSearchSnapshot, carried unchanged by every page of one listing; null for a listing's
   * first page, which reads the index as it is now (and returns that snapshot).
   */
  snapshot: string | null;
  /** `seq` of the previous page's last hit; null for the first page. */
  after: string | null;
  limit: number;
}

export interface SearchHit {
  /** The version's sort key, as decimal text: it exceeds 2^53. */
  seq: string;
  objectId: string;
  /** The object's row now; null when it was deleted after the snapshot. */
  row: ObjectRow | null;
}

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A point in the index's history: every page of one listing reads the versions current then. */
export async function takeSearchSnapshot(db: Db): Promise<string> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ snapshot: string }>`SELECT pg_current_snapshot()::text AS snapshot`.execute(db);
    const snapshot = rows[0].snapshot;
    // Many concurrent writers make a long list of in-progress ids; "everything before the oldest of
    // them" is an older but equally consistent snapshot that fits in a cursor.
    if (snapshot.length <= 400) return snapshot;
    const xmin = snapshot.slice(0, snapshot.indexOf(':'));
    return `${xmin}:${xmin}:`;
  }
  const { rows } = await sql<{ value: number }>`SELECT value FROM search_clock WHERE id = 1`.execute(db);
  return String(rows[0].value);
}

const INT64_MAX = 2n ** 63n - 1n;

function isInt64Text(text: string, allowNegative: boolean): boolean {
  if (!(allowNegative ? /^-?\d{1,19}$/ : /^\d{1,19}$/).test(text)) return false;
  const value = BigInt(text);
  return value <= INT64_MAX && value >= -INT64_MAX - 1n;
}

/** True when `text` could have come from takeSearchSnapshot on this store; cursors are client input. */
export function isSearchSnapshot(db: Db, text: string): boolean {
  if (!isPostgres(db)) return /^\d{1,15}$/.test(text);
  // pg_snapshot's text form, xmin:xmax:xip,…, with the invariants pg_snapshot_in enforces, so a
  // forged cursor is refused here rather than failing inside the query.
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

export function isSearchSeq(text: string): boolean {
  return isInt64Text(text, true);
}

/** `%`, `_` and `\` are literal in a title; they are escaped with `\` (STYLE.md, "User input never becomes SQL text"). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * SQLite's LIKE folds ASCII letters only; for other letters every lower/upper spelling of the
 * (at most two-character) query is tried, which is what the trigram index's folding would match.
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

interface Parts {
  pg: boolean;
  /** What a version `s` must be to be listed: of the workspace, trash state, snapshot and kind asked, after the cursor. */
  listed: RawBuilder<unknown>[];
  seqAfter: RawBuilder<unknown> | null;
  seqText: RawBuilder<unknown>;
  /** The snapshot read, as text, for the caller's cursor. */
  snapshotText: RawBuilder<unknown>;
  visible: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
}

/**
 * The snapshot a statement reads at: the given one, or on SQLite the clock now, read inside the
 * statement rather than by one of its own (a statement costs more than the read). PostgreSQL
 * always has one by then (findSearchHits).
 */
function snapshotOf(c: SearchCriteria): RawBuilder<unknown> {
  return c.snapshot === null ? sql`(SELECT value FROM search_clock WHERE id = 1)` : sql`${Number(c.snapshot)}`;
}

function parts(db: Db, c: SearchCriteria, seqColumn: string): Parts {
  const pg = isPostgres(db);
  const seq = sql.ref(seqColumn);
  const snapshotVisible = pg
    ? sql`pg_visible_in_snapshot(s.added_in, ${c.snapshot}::pg_snapshot) AND (s.removed_in IS NULL OR NOT pg_visible_in_snapshot(s.removed_in, ${c.snapshot}::pg_snapshot))`
    : sql`s.added_in <= ${snapshotOf(c)} AND (s.removed_in IS NULL OR s.removed_in > ${snapshotOf(c)})`;
  // Descending last_edited_time is ascending seq (seq negates the time).
  const ascendingSeq = c.direction === 'descending';
  let seqAfter: RawBuilder<unknown> | null = null;
  if (c.after !== null) {
    const bound = pg ? sql`${c.after}::bigint` : sql`${BigInt(c.after)}`;
    seqAfter = ascendingSeq ? sql`${seq} > ${bound}` : sql`${seq} < ${bound}`;
  }
  return {
    pg,
    listed: [
      sql`s.workspace_id = ${c.workspaceId}`,
      sql`s.in_trash = ${c.inTrash ? 1 : 0}`,
      snapshotVisible,
      c.object ? sql`s.object = ${c.object}` : sql`1 = 1`,
      ...(seqAfter ? [seqAfter] : []),
    ],
    seqAfter,
    seqText: pg ? sql`s.seq::text` : sql`CAST(s.seq AS TEXT)`,
    snapshotText: pg ? sql`${c.snapshot}::text` : sql`CAST(${snapshotOf(c)} AS TEXT)`,
    // PostgreSQL turns an EXISTS into a semi-join and, misjudging it, hashes every object the
    // connection can reach before the first row (seconds on a million pages); a scalar subquery
    // stays a per-row test, so the ordered index scan stops after one page.
    visible: pg
      ? sql`(SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id
          WHERE a.descendant_id = s.object_id AND g.connection_id = ${c.connectionId} LIMIT 1) IS NOT NULL`
      : sql`EXISTS (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id
          WHERE a.descendant_id = s.object_id AND g.connection_id = ${c.connectionId})`,
    order: ascendingSeq ? sql`${seq} ASC` : sql`${seq} DESC`,
  };
}

/**
 * `indexable: false` hides the condition from PostgreSQL's trigram index (the expression no
 * longer matches the index's), leaving the ordered scan as the only plan.
 */
function titleCondition(pg: boolean, query: string, indexable = true): RawBuilder<unknown> {
  if (pg) return indexable ? sql`lower(s.title) LIKE lower(${`%${escapeLike(query)}%`})` : sql`(lower(s.title) || '') LIKE lower(${`%${escapeLike(query)}%`})`;
  const patterns = sqliteShortQueryPatterns(query);
  return sql`(${sql.join(
    patterns.map((p) => sql`s.title LIKE ${p} ESCAPE '\\'`),
    sql` OR `,
  )})`;
}

async function countReachable(db: Db, connectionId: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT 1 FROM grants g JOIN object_ancestors a ON a.ancestor_id = g.object_id WHERE g.connection_id = ${connectionId} LIMIT ${cap}
    ) reachable`.execute(db);
  return Number(rows[0].n);
}

type HitRow = ObjectRow & { hit_seq: string; hit_object_id: string; hit_title: string; hit_snapshot: string };

/** Hits in order, and the snapshot they were read at (null when none was given and nothing found). */
export interface SearchHits {
  hits: SearchHit[];
  snapshot: string | null;
}

/**
 * The hits, in order, with their objects' rows read by the same statement; `hit_title` is the
 * title of the version found (the object's may have changed since the snapshot).
 */
function withRows(hits: RawBuilder<unknown>, order: SearchDirection): RawBuilder<HitRow> {
  const direction = order === 'descending' ? sql`ASC` : sql`DESC`;
  return sql<HitRow>`SELECT h.hit_seq, h.hit_object_id, h.hit_title, h.hit_snapshot, o.* FROM (${hits}) h LEFT JOIN objects o ON o.id = h.hit_object_id
    ORDER BY h.hit_key ${direction}`;
}

/** The row keeps its three hit_ columns: copying twenty others to drop them cost more than they do. */
function toHit(r: HitRow): SearchHit {
  return { seq: r.hit_seq, objectId: r.hit_object_id, row: r.id === null ? null : r };
}

function toHits(rows: readonly HitRow[], c: SearchCriteria): SearchHits {
  return { hits: rows.map(toHit), snapshot: c.snapshot ?? rows[0]?.hit_snapshot ?? null };
}

/** PostgreSQL: with at least this many titles matching, walking the sort order beats collecting every match. */
const COMMON_MATCHES = 2000;

/**
 * PostgreSQL's estimate of how many titles match a substring is often off by several times, and
 * when it guesses few it collects every match from the trigram index, testing each one's
 * visibility, before sorting: seconds for a query that matches ten thousand titles. Counting up
 * to COMMON_MATCHES through the index is cheap, and settles it.
 */
async function isCommonOnPostgres(db: Db, c: SearchCriteria): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT 1 FROM search_index s WHERE ${titleCondition(true, c.query!)} LIMIT ${COMMON_MATCHES}) matching`.execute(db);
  return Number(rows[0].n) >= COMMON_MATCHES;
}

async function orderedHits(db: Db, c: SearchCriteria, tunePlanner = false): Promise<SearchHits> {
  const useFts = !isPostgres(db) && c.query !== null && [...c.query].length >= TRIGRAM;
  const p = parts(db, c, useFts ? 'search_fts.rowid' : 's.seq');
  const common = p.pg && c.query !== null && (await isCommonOnPostgres(db, c));
  const where = [...p.listed, ...(c.query !== null && !useFts ? [titleCondition(p.pg, c.query, !common)] : []), p.visible];
  // CROSS JOIN fixes the full-text table as the outer loop, so its rowid order is the output order.
  const from = useFts
    ? sql`search_fts CROSS JOIN search_index s ON s.seq = search_fts.rowid`
    : p.pg
      ? sql`search_index s`
      : sql`search_index s INDEXED BY search_index_listing`;
  const ftsMatch = useFts ? [sql`search_fts MATCH ${`"${c.query!.replace(/"/g, '""')}"`}`] : [];
  const hits = sql`SELECT s.seq AS hit_key, ${p.seqText} AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${p.snapshotText} AS hit_snapshot FROM ${from}
    WHERE ${sql.join([...ftsMatch, ...where], sql` AND `)}
    ORDER BY ${p.order} LIMIT ${c.limit}`;
  // Even with the trigram index out of reach, PostgreSQL may prefer reading the whole table and
  // sorting it; for a common query only the walk in index order stops early. Only inside
  // findSearchHits's own transaction, so the settings end with it.
  if (common && tunePlanner) await sql`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`.execute(db);
  const { rows } = await withRows(hits, c.direction).execute(db);
  return toHits(rows, c);
}

/** Hits the visible-first plan reads per further statement when JavaScript turned titles down. */
const SCOPE_BATCH = 256;

/**
 * The visible-first plan: the connection's shares' ranges of search_scope (migration 004), keyed
 * (ancestor, seq), list what it can see with titles; the title test runs on that list, and only
 * the seqs that pass are looked up in the index (trash, snapshot, kind), in sort order, stopping
 * after one page. On SQLite, LIKE decides titles without cased letters beyond ASCII
 * (src/storage/titleFolding.ts); the others pass it and are decided here with foldTitle.
 */
async function visibleFirstHits(db: Db, c: SearchCriteria): Promise<SearchHits> {
  const needle = c.query === null ? null : foldTitle(c.query);
  const statement = (snapshot: string | null, after: string | null, limit: number) => {
    const inner = parts(db, { ...c, snapshot, after }, 'sc.seq');
    const outer = parts(db, { ...c, snapshot, after }, 's.seq');
    const titleTest =
      needle === null
        ? []
        : inner.pg
          ? [sql`lower(sc.title) LIKE lower(${`%${escapeLike(c.query!)}%`})`]
          : // The folded query: a title without cased letters beyond ASCII matches it under LIKE exactly when under foldTitle.
            [sql`(sc.title LIKE ${`%${escapeLike(needle)}%`} ESCAPE '\\' OR sc.unsure = 1)`];
    const visible = sql`SELECT ${inner.pg ? sql`DISTINCT ` : sql``}sc.seq FROM grants g ${inner.pg ? sql`JOIN` : sql`CROSS JOIN`} search_scope sc ON sc.ancestor_id = g.object_id
      WHERE ${sql.join([sql`g.connection_id = ${c.connectionId}`, ...(inner.seqAfter ? [inner.seqAfter] : []), ...titleTest], sql` AND `)}`;
    // Both stores walk the visible seqs in sort order, looking each up until the page is full:
    // SQLite through the sorted table it builds for an IN list, PostgreSQL through a sorted
    // subquery whose order the join keeps (it hashes an IN list, looking up every seq first).
    return inner.pg
      ? sql`SELECT c.seq AS hit_key, c.seq::text AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${outer.snapshotText} AS hit_snapshot
          FROM (${visible} ORDER BY ${inner.order}) c JOIN search_index s ON s.seq = c.seq
          WHERE ${sql.join(outer.listed, sql` AND `)} ORDER BY c.seq ${c.direction === 'descending' ? sql`ASC` : sql`DESC`} LIMIT ${limit}`
      : sql`SELECT s.seq AS hit_key, CAST(s.seq AS TEXT) AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${outer.snapshotText} AS hit_snapshot FROM search_index s
          WHERE s.seq IN (${visible}) AND ${sql.join(outer.listed, sql` AND `)} ORDER BY ${outer.order} LIMIT ${limit}`;
  };

  if (needle === null || isPostgres(db)) return toHits((await withRows(statement(c.snapshot, c.after, c.limit), c.direction).execute(db)).rows, c);

  const matching: SearchHit[] = [];
  let after = c.after;
  let snapshot = c.snapshot;
  // Most titles are decided by LIKE alone, so the first statement asks for one page exactly.
  for (let batch = c.limit; ; batch = SCOPE_BATCH) {
    const { rows } = await withRows(statement(snapshot, after, batch), c.direction).execute(db);
    // Later statements read at the snapshot of the first.
    snapshot ??= rows[0]?.hit_snapshot ?? null;
    for (const r of rows) {
      if (mayFoldBeyondAscii(r.hit_title) && !foldTitle(r.hit_title).includes(needle)) continue;
      matching.push(toHit(r));
      if (matching.length === c.limit) break;
    }
    if (matching.length === c.limit || rows.length < batch) break;
    after = rows[rows.length - 1].hit_seq;
  }
  return { hits: matching, snapshot };
}

export type SearchPlan = 'auto' | 'ordered' | 'visible_first';

/**
 * Which plan suits a connection changes only when its shares grow or shrink a lot, so the
 * choice is remembered for a minute; a stale choice costs time, never correctness.
 */
const planCache = new Map<string, { plan: SearchPlan; until: number }>();
const PLAN_CACHE_MS = 60_000;

async function choosePlan(db: Db, connectionId: string, below: number): Promise<SearchPlan> {
  const now = Date.now();
  const key = `${below} ${connectionId}`;
  const cached = planCache.get(key);
  if (cached && cached.until > now) return cached.plan;
  const plan = (await countReachable(db, connectionId, below)) < below ? 'visible_first' : 'ordered';
  if (planCache.size > 10_000) planCache.clear();
  planCache.set(key, { plan, until: now + PLAN_CACHE_MS });
  return plan;
}

export interface SearchOptions {
  /** Forces a plan; tests use it to check that both plans agree. */
  plan?: SearchPlan;
  /** Reachable objects below which the visible-first plan is chosen. */
  visibleFirstBelow?: number;
}

/**
 * Up to `limit` hits after `after`, in the requested order, of versions current at the snapshot,
 * each with its object's row (null if the object was deleted since), and that snapshot.
 */
export async function findSearchHits(db: Db, criteria: SearchCriteria, options: SearchOptions = {}): Promise<SearchHits> {
  const plan = options.plan ?? 'auto';
  const below = options.visibleFirstBelow ?? VISIBLE_FIRST_BELOW;
  // No stored title holds NUL (PostgreSQL text cannot), and PostgreSQL refuses it as a parameter.
  if (criteria.query?.includes('\u0000')) return { hits: [], snapshot: criteria.snapshot };
  const run = async (q: Db, tunePlanner: boolean) => {
    const chosen = plan === 'auto' ? await choosePlan(q, criteria.connectionId, below) : plan;
    // PostgreSQL's snapshot is a value of its own, taken first.
    const c = criteria.snapshot === null && isPostgres(q) ? { ...criteria, snapshot: await takeSearchSnapshot(q) } : criteria;
    return chosen === 'visible_first' ? visibleFirstHits(q, c) : orderedHits(q, c, tunePlanner);
  };
  // On PostgreSQL the statements run in a transaction of their own, so planner settings stay
  // local to it: no JIT compilation (its cost estimates run high on a million rows, and compiling
  // takes longer than the query), and the ordered walk forced for common queries (orderedHits).
  if (!isPostgres(db) || db.isTransaction) return run(db, false);
  return (db as Kysely<DB>).transaction().execute(async (trx) => {
    await sql`SELECT set_config('jit', 'off', true)`.execute(trx);
    return run(trx, true);
  });
}

/** After a bulk load: merge the full-text segments and refresh the planners' statistics. */
export async function optimizeSearchIndex(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`ANALYZE`.execute(db);
    return;
  }
  await sql`INSERT INTO search_fts (search_fts) VALUES ('optimize')`.execute(db);
  await sql`ANALYZE`.execute(db);
}

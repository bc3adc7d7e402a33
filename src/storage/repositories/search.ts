import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf, type Dialect } from '../dialect.js';
import type { ObjectRow } from '../schema.js';
import { isInt64Text } from '../searchDialect.js';
import { foldTitle, mayFoldBeyondAscii } from '../titleFolding.js';

/**
 * Title search over `search_index` (migration 002 explains the table, its versions and snapshots).
 *
 * Two plans, because what is expensive depends on how much the connection can see and how many
 * titles match:
 * - ordered: walk the matches in sort order (FTS5 streams them in rowid = seq order; otherwise the
 *   (workspace_id, in_trash, seq) index) and test visibility row by row, stopping after one page.
 *   Its cost is about page size ÷ the fraction of matches the connection can see, and never more
 *   than the matches.
 * - visible first: read what the connection can see from search_scope (migration 004), by each of
 *   its shares in sort order, filter, and stop after one page. Its cost is at most the size of
 *   those subtrees, read as adjacent keys.
 * A connection whose grants reach at least VISIBLE_FIRST_BELOW objects (FOLIO_SEARCH_VISIBLE_FIRST_BELOW)
 * gets the ordered plan. Below that, a query the trigram index can answer (three characters or
 * more) has its matches counted through the index up to a cap (fewMatchesCap): fewer than the cap
 * take the ordered walk, which then tests at most that many rows; more, like a null or shorter
 * query, take visible first. Both plans return the same rows.
 */

/**
 * Below this many reachable objects (closure rows of the connection's grants) the visible-first
 * plan is cheaper. Measured on the 1M-page bench workspace (docs/benchmarks.md): a share of 20k
 * objects answered in 3–7 ms visible first against 12–27 ms ordered; at 40k the two were even.
 */
export const VISIBLE_FIRST_BELOW = 30_000;

/**
 * How many reachable objects the visible-first plan reads in the time the ordered walk tests one
 * match (an index lookup of the version, then its ancestors against the grants): about 16 from the
 * measurement behind VISIBLE_FIRST_BELOW (20k objects read in 3–7 ms; the ordered walk's ~5,000
 * tests in 12–27 ms). From a reach of 1,024 the cap is MATCH_COUNT_CAP.
 */
const REACH_PER_MATCH = 16;

/**
 * The most matches counted: counting stops there. A common query still pays for loading its
 * trigrams' lists (8–25% of the visible-first plan on the 8,000-page bench workspace,
 * docs/benchmarks.md "Search cost follows the matches"), hence commonQueries below.
 */
const MATCH_COUNT_CAP = 64;

/**
 * Below this reach matches are not counted: the count itself (intersecting the trigrams' lists,
 * 0.03–0.3 ms on the 8,000-page bench workspace) and the short walk after it cost about what
 * visible first spends reading this many reachable objects. Measured on the prism bench's
 * workspace (a reach of ~1,200, 5 matches): visible first 270 µs of SQLite's time, count and walk
 * 44 + 76 µs; visible first reads ~0.22 µs an object (docs/benchmarks.md, "Search: counting from
 * a reach of 500"). It was 2,000, which left that search at a third of its speed.
 */
const COUNT_MATCHES_FROM = 500;

/**
 * A query with fewer matches than this takes the ordered walk in a connection of `reach` objects:
 * the walk then costs less than reading what the connection can see. Zero (never) for a reach too
 * small for the count to pay off.
 */
export function fewMatchesCap(reach: number, countFrom = COUNT_MATCHES_FROM): number {
  return reach < countFrom ? 0 : Math.min(MATCH_COUNT_CAP, Math.floor(reach / REACH_PER_MATCH));
}

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
   * Taken by the first page (SearchDialect.snapshotForStatements), carried unchanged by every page of one listing; null for a listing's
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

/** True when `text` could have come from a listing's first page on this store; cursors are client input. */
export function isSearchSnapshot(db: Db, text: string): boolean {
  return dialectOf(db).search.isSnapshot(text);
}

export function isSearchSeq(text: string): boolean {
  return isInt64Text(text, true);
}

interface Parts {
  /** What a version `s` must be to be listed: of the workspace, trash state, snapshot and kind asked, after the cursor. */
  listed: RawBuilder<unknown>[];
  seqAfter: RawBuilder<unknown> | null;
  seqText: RawBuilder<unknown>;
  /** The snapshot read, as text, for the caller's cursor. */
  snapshotText: RawBuilder<unknown>;
  visible: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
}

function parts(dialect: Dialect, c: SearchCriteria, seqColumn: string): Parts {
  const seq = sql.ref(seqColumn);
  // Descending last_edited_time is ascending seq (seq negates the time).
  const ascendingSeq = c.direction === 'descending';
  let seqAfter: RawBuilder<unknown> | null = null;
  if (c.after !== null) {
    const bound = dialect.int64(c.after);
    seqAfter = ascendingSeq ? sql`${seq} > ${bound}` : sql`${seq} < ${bound}`;
  }
  return {
    listed: [
      sql`s.workspace_id = ${c.workspaceId}`,
      sql`s.in_trash = ${c.inTrash ? 1 : 0}`,
      dialect.search.currentAt(c.snapshot),
      c.object ? sql`s.object = ${c.object}` : sql`1 = 1`,
      ...(seqAfter ? [seqAfter] : []),
    ],
    seqAfter,
    seqText: dialect.textOf(sql`s.seq`),
    snapshotText: dialect.textOf(dialect.search.snapshotValue(c.snapshot)),
    // Readable by the connection: one of the object's ancestors (itself included) is shared with it.
    visible: dialect.existsPerRow(sql`SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id
          WHERE a.descendant_id = s.object_id AND g.connection_id = ${c.connectionId}`),
    order: ascendingSeq ? sql`${seq} ASC` : sql`${seq} DESC`,
  };
}

async function countReachable(db: Db, connectionId: string, cap: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM (
      SELECT 1 FROM grants g JOIN object_ancestors a ON a.ancestor_id = g.object_id WHERE g.connection_id = ${connectionId} LIMIT ${dialectOf(db).limitCount(cap)}
    ) reachable`.execute(db);
  return Number(rows[0].n);
}

type HitRow = ObjectRow & { hit_seq: string; hit_object_id: string; hit_title: string; hit_snapshot: string };

/** Hits in order, and the snapshot they were read at (null when none was given and nothing found). */
export interface SearchHits {
  hits: SearchHit[];
  snapshot: string | null;
  /** The plan that read them (null: none needed to); tests check the automatic choice by it. */
  plan: Exclude<SearchPlan, 'auto'> | null;
}

/** What a plan reads; findSearchHits adds which plan it was. */
type PlanHits = Omit<SearchHits, 'plan'>;

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

function toHits(rows: readonly HitRow[], c: SearchCriteria): PlanHits {
  return { hits: rows.map(toHit), snapshot: c.snapshot ?? rows[0]?.hit_snapshot ?? null };
}

/** `fewMatches`: the matches were counted below fewMatchesCap, so the query is not common. */
async function orderedHits(db: Db, c: SearchCriteria, tunePlanner = false, fewMatches = false): Promise<PlanHits> {
  const dialect = dialectOf(db);
  const fullText = dialect.search.fullTextWalk(c.query);
  const p = parts(dialect, c, fullText?.seqColumn ?? 's.seq');
  const common = c.query !== null && !fewMatches && (await dialect.search.isCommonQuery(db, c.query));
  const where = [...p.listed, ...(c.query !== null && !fullText ? [dialect.search.titleContains(c.query, !common)] : []), p.visible];
  const hits = sql`SELECT s.seq AS hit_key, ${p.seqText} AS hit_seq, s.object_id AS hit_object_id, s.title AS hit_title, ${p.snapshotText} AS hit_snapshot FROM ${fullText?.from ?? dialect.search.listing}
    WHERE ${sql.join([...(fullText ? [fullText.match] : []), ...where], sql` AND `)}
    ORDER BY ${p.order} LIMIT ${dialect.limitCount(c.limit)}`;
  // Even with the trigram index out of reach, PostgreSQL may prefer reading the whole table and
  // sorting it; for a common query (only ever one on PostgreSQL) only the walk in index order stops
  // early. Only inside findSearchHits's own transaction, so the settings end with it.
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
async function visibleFirstHits(db: Db, c: SearchCriteria): Promise<PlanHits> {
  const dialect = dialectOf(db);
  const needle = c.query === null ? null : foldTitle(c.query);
  const statement = (snapshot: string | null, after: string | null, limit: number) => {
    const inner = parts(dialect, { ...c, snapshot, after }, 'sc.seq');
    const outer = parts(dialect, { ...c, snapshot, after }, 's.seq');
    const titleTest = c.query === null ? [] : [dialect.search.scopeTitleContains(c.query)];
    return dialect.search.visibleVersions({
      visible: dialect.search.visibleSeqs(c.connectionId, [...(inner.seqAfter ? [inner.seqAfter] : []), ...titleTest]),
      visibleOrder: inner.order,
      order: outer.order,
      ascendingSeq: c.direction === 'descending',
      listed: outer.listed,
      snapshotText: outer.snapshotText,
      limit,
    });
  };

  if (needle === null || dialect.search.foldsEveryLetter)
    return toHits((await withRows(statement(c.snapshot, c.after, c.limit), c.direction).execute(db)).rows, c);

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
 * A connection's reach changes only when its shares grow or shrink a lot, so it is remembered
 * for a minute; a stale count costs time, never correctness.
 */
const reachCache = new Map<string, { reach: number; until: number }>();
const REACH_CACHE_MS = 60_000;

async function reachOf(db: Db, connectionId: string, below: number): Promise<number> {
  const now = Date.now();
  const key = `${below} ${connectionId}`;
  const cached = reachCache.get(key);
  if (cached && cached.until > now) return cached.reach;
  const reach = await countReachable(db, connectionId, below);
  if (reachCache.size > 10_000) reachCache.clear();
  reachCache.set(key, { reach, until: now + REACH_CACHE_MS });
  return reach;
}

/** The plan, and for the ordered plan chosen by counting, that the query is not common. */
interface Choice {
  plan: Exclude<SearchPlan, 'auto'>;
  fewMatches: boolean;
}

/**
 * Queries whose count reached MATCH_COUNT_CAP in the last minute, by text: counting a common
 * query costs 8–25% of the visible-first plan it then runs (FTS5 loads its trigrams' lists, on the
 * 8,000-page bench workspace), so a repeated one is not counted again. Matches only grow slowly;
 * a stale entry costs time, never correctness.
 */
const commonQueries = new Map<string, number>();

async function choosePlan(db: Db, c: SearchCriteria, below: number, countFrom: number | undefined): Promise<Choice> {
  const reach = await reachOf(db, c.connectionId, below);
  if (reach >= below) return { plan: 'ordered', fewMatches: false };
  const cap = fewMatchesCap(reach, countFrom);
  // Null and short queries: the index cannot count them, and visible first reads no more than the reach.
  if (c.query === null || cap === 0) return { plan: 'visible_first', fewMatches: false };
  const now = Date.now();
  if ((commonQueries.get(c.query) ?? 0) > now) return { plan: 'visible_first', fewMatches: false };
  const matches = await dialectOf(db).search.countMatches(db, c.query, MATCH_COUNT_CAP);
  if (matches !== null && matches >= MATCH_COUNT_CAP) {
    if (commonQueries.size > 10_000) commonQueries.clear();
    commonQueries.set(c.query, now + REACH_CACHE_MS);
  }
  return matches !== null && matches < cap ? { plan: 'ordered', fewMatches: true } : { plan: 'visible_first', fewMatches: false };
}

export interface SearchOptions {
  /** Forces a plan; tests use it to check that both plans agree. */
  plan?: SearchPlan;
  /** Reachable objects below which the visible-first plan is chosen. */
  visibleFirstBelow?: number;
  /** Reachable objects from which matches are counted (COUNT_MATCHES_FROM); tests lower it to choose by count in a small tree. */
  countMatchesFrom?: number;
}

/**
 * Up to `limit` hits after `after`, in the requested order, of versions current at the snapshot,
 * each with its object's row (null if the object was deleted since), and that snapshot.
 */
export async function findSearchHits(db: Db, criteria: SearchCriteria, options: SearchOptions = {}): Promise<SearchHits> {
  const plan = options.plan ?? 'auto';
  const below = options.visibleFirstBelow ?? VISIBLE_FIRST_BELOW;
  // No stored title holds NUL (PostgreSQL text cannot), and PostgreSQL refuses it as a parameter.
  if (criteria.query?.includes('\u0000')) return { hits: [], snapshot: criteria.snapshot, plan: null };
  return dialectOf(db).search.withPlannerSettings(db, async (q, tunePlanner) => {
    const chosen: Choice = plan === 'auto' ? await choosePlan(q, criteria, below, options.countMatchesFrom) : { plan, fewMatches: false };
    const c = { ...criteria, snapshot: await dialectOf(q).search.snapshotForStatements(q, criteria.snapshot) };
    const found = chosen.plan === 'visible_first' ? await visibleFirstHits(q, c) : await orderedHits(q, c, tunePlanner, chosen.fewMatches);
    return { ...found, plan: chosen.plan };
  });
}

/** After a bulk load: refresh the planner's statistics (and on SQLite merge the full-text segments). */
export async function optimizeSearchIndex(db: Db): Promise<void> {
  await dialectOf(db).search.optimize(db);
}

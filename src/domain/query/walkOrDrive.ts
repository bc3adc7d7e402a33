import type { Db } from '../../storage/db.js';
import { countPagesOf, countSetUpTo } from '../../storage/query/planCounts.js';
import { idInSet } from '../../storage/query/selectPage.js';
import type { Alias, Cond } from '../../storage/query/sqlPieces.js';
import { compileFilter } from './compileFilter.js';
import type { CompileEnv } from './compileEnv.js';
import type { FilterTree } from './parseFilter.js';
import type { ReadOrder } from './sortPath.js';

/**
 * With sorts every match is read and sorted anyway (unless the first sort key is read from its
 * index, sortPath.ts), so a much larger set still drives.
 */
export const SORTED_DRIVE_LIMIT = 100_000;
export const MIN_DRIVE_LIMIT = 1000;
export const MAX_DRIVE_LIMIT = 10_000;

/** Results a listing is usually asked for at once (a page of a query): the crossover below assumes it. */
export const PAGE_WANTED = 100;

/**
 * How far a condition's set is counted before the statement walks instead of driving from it,
 * for a data source of `pages` pages when `wanted` results are asked for at once. Walking finds
 * w results among n matches of N pages after about w·N/n rows; driving costs about n lookups and a
 * sort of n: they cost alike near n = √(w·N), 3,000 at 100,000 pages for a page of 100 and 10,000
 * at a million. A view query keeps its result 1,000 results at a time (src/commands/databaseViews/),
 * so it drives from larger sets. Counting costs up to the limit
 * (0.5 ms for 10,000 entries on SQLite; on PostgreSQL 3–5 ms once vacuum has marked the table
 * all-visible, 30–65 ms on a freshly written one, where each entry's row is visited), so it stops
 * at the crossover of this data source's size, and never beyond MAX_DRIVE_LIMIT. Both counts are
 * remembered for a minute (storage/query/planCounts.ts). PostgreSQL once stopped at 2,000 for the
 * fresh-table cost: at a million pages a relation holding 3,490 of them then walked, 324 ms
 * against 60–99 ms driven (docs/benchmarks.md, 2026-11-25).
 */
export function driveLimitOfSize(pages: number, wanted: number = PAGE_WANTED): number {
  return Math.min(MAX_DRIVE_LIMIT, Math.max(MIN_DRIVE_LIMIT, Math.ceil(Math.sqrt(Math.max(PAGE_WANTED, wanted) * pages))));
}

/**
 * The drive limit for a listing read in `order`: read in the sort's order from an index (or in
 * creation order), `wanted` matches come as soon as walking finds them, so the data source's
 * size decides; sorted, every match is sorted anyway. `pages` counts the size, only when needed.
 */
export async function driveLimit(order: ReadOrder, pages: () => Promise<number>, wanted: number = PAGE_WANTED): Promise<number> {
  return order === 'sorted' ? SORTED_DRIVE_LIMIT : driveLimitOfSize(await pages(), wanted);
}

/**
 * The drive limit for counting up to `upTo` matches among `pages`: walking finds them after about
 * upTo·N/n rows, driving reads the set's n entries, so sets under √(upTo·N) drive (31,623 for
 * 10,001 at 100,000 pages). Not capped at MAX_DRIVE_LIMIT: the count a set is counted up to is
 * the statement's own cost bound anyway. A view query counts its result this way (runListing.ts
 * countListing): at 100,000 pages a select matching 11 % counted in 286 ms walked, 110 ms driven.
 */
export function countDriveLimit(pages: number, upTo: number): number {
  return Math.max(MIN_DRIVE_LIMIT, Math.ceil(Math.sqrt(upTo * pages)));
}

/**
 * Which conjunct to drive from, given each one's count up to `limit` (null for a conjunct with no
 * countable set): the smallest under the limit, the first of equals; null to walk.
 */
export function pickDriver(counts: readonly (number | null)[], limit: number): number | null {
  let best: { at: number; count: number } | null = null;
  for (const [at, count] of counts.entries()) {
    if (count === null) continue;
    if (count < limit && (!best || count < best.count)) best = { at, count };
  }
  return best?.at ?? null;
}

/**
 * The filter as conditions ANDed into the statement. Conditions are asked per page row as the
 * statement walks the data source in order (storage/query/sqlPieces.ts); when one of the top-level
 * conjuncts is a positive condition whose set of pages is small (counted up to a limit from its
 * index, one cheap statement), the walk would read the whole data source to find few rows, so
 * that conjunct is asked as `id IN (its set)` instead, and the store starts from the set: the plan
 * is chosen here, from a count, because neither store's planner can tell a rare value of one
 * property from a common one (docs/benchmarks.md "Queries"). `driven` says whether a set was chosen.
 */
export async function conjuncts(
  db: Db,
  filter: FilterTree,
  p: Alias,
  dataSourceId: string,
  env: CompileEnv,
  order: ReadOrder,
  wanted: number = PAGE_WANTED,
  /** The count a set must stay under to drive, when the caller has its own crossover (countLimit). */
  driveUnder?: number,
): Promise<{ conds: Cond[]; driven: boolean }> {
  const items = filter.kind === 'and' ? filter.items : [filter];
  const conds = items.map((item) => compileFilter(item, p, dataSourceId, env));
  const counts: (number | null)[] = [];
  let limit: number | null = null;
  for (const cond of conds) {
    const set = env.sets?.get(cond);
    if (!set || set.scanned) {
      counts.push(null);
      continue;
    }
    limit ??= driveUnder ?? (await driveLimit(order, () => countPagesOf(db, dataSourceId), wanted));
    counts.push(await countSetUpTo(db, set, limit));
  }
  const at = limit === null ? null : pickDriver(counts, limit);
  if (at !== null) conds[at] = idInSet(p, env.sets!.get(conds[at])!);
  return { conds, driven: at !== null };
}

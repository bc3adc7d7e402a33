import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../dialect.js';
import type { PageSet } from './sqlPieces.js';

/**
 * Counts that only choose a plan (a data source's size, how many pages a condition holds up to a
 * limit: domain/query/walkOrDrive.ts), remembered per process for a minute. A plan chosen from a
 * count a minute old reads the same rows, only perhaps more slowly; counting again on every
 * request cost about as much as reading a page of results' values (0.3–1 ms of a 10 ms query at
 * 100,000 pages), and integrations repeat the same query. Keyed by the statement's text and
 * parameters.
 */
const remembered = new Map<string, { n: number; at: number }>();
const TTL_MS = 60_000;
const KEPT = 5000;

export async function planCount(db: Db, statement: RawBuilder<{ n: number | string }>): Promise<number> {
  const compiled = statement.compile(db);
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
  // Wall time, not the service's clock: a test clock held still would keep a count forever.
  const now = Date.now();
  const known = remembered.get(key);
  if (known && now - known.at < TTL_MS) return known.n;
  const { rows } = await db.executeQuery(compiled);
  const n = Number(rows[0].n);
  if (!known && remembered.size >= KEPT) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, { n, at: now });
  return n;
}

/** The pages of a data source not in the trash (remembered, planCount). */
export function countPagesOf(db: Db, dataSourceId: string): Promise<number> {
  return planCount(db, sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM objects WHERE parent_id = ${dataSourceId} AND in_trash = 0`);
}

/** The pages of a condition's set, counted up to `limit` from its index (remembered, planCount). */
export function countSetUpTo(db: Db, set: PageSet, limit: number): Promise<number> {
  return planCount(db, sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM (${set.rows} LIMIT ${dialectOf(db).limitCount(limit)}) counted`);
}

import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { Dialect } from '../dialect.js';
import type { JobRow, JobState } from '../schema.js';

/**
 * Durable jobs (migration 007; ../shared/STYLE.md "Background work that survives a crash").
 *
 * - Claiming is one statement that picks a due job of one kind and marks it running for one worker
 *   with a lease: `FOR UPDATE SKIP LOCKED` on PostgreSQL, SQLite's single writer otherwise
 *   (Dialect.claimLock), so two workers never hold one job.
 * - The attempt is counted at claim, so a job whose worker dies every time still reaches its end.
 * - A running job whose lease passed (its worker died or hung) is due again: the next claim
 *   takes it over under a new worker id. Every later write of the old worker is fenced by
 *   `holdJob` and finds the job gone.
 */

export interface NewJob {
  id: string;
  kind: string;
  workspaceId: string;
  subjectId: string;
  payload: unknown;
  maxAttempts: number;
  at: string;
}

export async function enqueueJob(db: Db, job: NewJob): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: job.id,
      kind: job.kind,
      workspace_id: job.workspaceId,
      subject_id: job.subjectId,
      payload: JSON.stringify(job.payload),
      progress: '{}',
      state: 'queued',
      attempts: 0,
      max_attempts: job.maxAttempts,
      run_after: job.at,
      lease_until: null,
      worker_id: null,
      last_error: null,
      created_time: job.at,
      finished_time: null,
    })
    .execute();
}

/**
 * Takes the next due job of `kind` for `workerId` until `leaseUntil`, in one statement (the shape
 * of pg-boss's fetchNextJob and graphile-worker's getJobs): `UPDATE … WHERE id = (SELECT … LIMIT 1
 * FOR UPDATE SKIP LOCKED) RETURNING *`. On PostgreSQL concurrent claimers skip the row another
 * holds and take the next; on SQLite the statement runs alone (one writer), so nothing is added.
 * Undefined when none is due.
 */
export async function claimJob(
  db: Db,
  dialect: Dialect,
  claim: { workerId: string; kind: string; now: string; leaseUntil: string },
): Promise<JobRow | undefined> {
  const due = (db: Db) =>
    db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', claim.kind)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', claim.now)]),
          eb.and([eb('state', '=', 'running'), eb('lease_until', '<', claim.now)]),
        ]),
      )
      .orderBy('run_after')
      .orderBy('id')
      .limit(1);
  // On SQLite an UPDATE takes the write lock even when it matches nothing, and better-sqlite3 waits
  // for a busy lock synchronously: every idle poll of every kind would stall the event loop while
  // another connection writes. A read first finds most polls have nothing to claim.
  if (dialect.name === 'sqlite' && !(await due(db).executeTakeFirst())) return undefined;
  return db
    .updateTable('jobs')
    .set({ state: 'running', worker_id: claim.workerId, lease_until: claim.leaseUntil, attempts: sql<number>`attempts + 1` })
    .where('id', '=', () => due(db).modifyEnd(dialect.claimLock))
    .returningAll()
    .executeTakeFirst();
}

/**
 * The fence: renews the lease of a job `workerId` still holds and answers whether it does. Run
 * first in every transaction that writes a job's results: on PostgreSQL the update locks the job
 * row until commit, so a takeover cannot slip between the check and the write.
 */
export async function holdJob(db: Db, id: string, workerId: string, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function saveJobProgress(db: Db, id: string, progress: unknown): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ progress: JSON.stringify(progress) })
    .where('id', '=', id)
    .execute();
}

/** Ends a job the worker holds: `done`, or `failed` with its reason. */
export async function finishJob(db: Db, id: string, workerId: string, end: { state: 'done' | 'failed'; at: string; error?: string }): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: end.state, finished_time: end.at, lease_until: null, ...(end.error === undefined ? {} : { last_error: end.error }) })
    .where('id', '=', id)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Hands a held job back to the queue, due at `runAfter` (a retry after a failure, or a worker shutting down). */
export async function requeueJob(
  db: Db,
  id: string,
  workerId: string,
  requeue: { runAfter: string; error?: string; refundAttempt?: boolean },
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'queued',
      worker_id: null,
      lease_until: null,
      run_after: requeue.runAfter,
      ...(requeue.error === undefined ? {} : { last_error: requeue.error }),
      // A job handed back unstarted at shutdown did not use up an attempt.
      ...(requeue.refundAttempt ? { attempts: sql<number>`attempts - 1` } : {}),
    })
    .where('id', '=', id)
    .where('worker_id', '=', workerId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function jobsOfSubject(db: Db, subjectId: string): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('subject_id', '=', subjectId).orderBy('created_time').execute();
}

export interface JobFilter {
  state?: JobState;
  kind?: string;
  subjectId?: string;
}

/** Keyset page of jobs by id, optionally of one state, for the admin plane. */
export async function listJobs(db: Db, filter: JobFilter, afterId: string | null, limit: number): Promise<JobRow[]> {
  let query = db.selectFrom('jobs').selectAll();
  if (filter.state) query = query.where('state', '=', filter.state);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.subjectId) query = query.where('subject_id', '=', filter.subjectId);
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/** Jobs per state, for /readyz and the admin plane. */
export async function countJobsByState(db: Db): Promise<Partial<Record<JobState, number>>> {
  const rows = await db
    .selectFrom('jobs')
    .select(['state', sql<number>`count(*)`.as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

/** Jobs waiting or running, by kind and state, for the metrics (src/instruments/metrics.ts). */
export async function countPendingJobs(db: Db): Promise<{ kind: string; state: string; count: number }[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'state', sql<number>`count(*)`.as('n')])
    .where('state', 'in', ['queued', 'running'])
    .groupBy(['kind', 'state'])
    .execute();
  return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.n) }));
}

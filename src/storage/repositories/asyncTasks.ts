import type { Db } from '../db.js';
import type { AsyncTaskRow, JobRow } from '../schema.js';

/** Async tasks (migration 011): a request run in the background by its job (src/jobs/kinds/asyncTask.ts). */

export async function insertAsyncTask(db: Db, row: AsyncTaskRow): Promise<void> {
  await db.insertInto('async_tasks').values(row).execute();
}

/** A task with the job that runs it (the job tells queued from running from retrying). */
export interface AsyncTaskWithJob {
  task: AsyncTaskRow;
  job: Pick<JobRow, 'state' | 'attempts'> | null;
}

export async function findAsyncTask(db: Db, id: string): Promise<AsyncTaskWithJob | undefined> {
  const task = await db.selectFrom('async_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!task) return undefined;
  const job = await db.selectFrom('jobs').select(['state', 'attempts']).where('subject_id', '=', id).orderBy('created_time', 'desc').executeTakeFirst();
  return { task, job: job ?? null };
}

/** Ends a task still open: `succeeded` with its result or `failed` with its error (both JSON). False when it had ended. */
export async function completeAsyncTask(
  db: Db,
  id: string,
  end: { status: 'succeeded' | 'failed'; result?: string; error?: string; at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('async_tasks')
    .set({ status: end.status, result: end.result ?? null, error: end.error ?? null, completed_time: end.at })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes tasks that ended before `before` (their retention ran out). */
export async function deleteAsyncTasksEndedBefore(db: Db, before: string): Promise<void> {
  await db.deleteFrom('async_tasks').where('completed_time', '<', before).execute();
}

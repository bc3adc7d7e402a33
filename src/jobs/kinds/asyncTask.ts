import type { JobKind } from '../jobKind.js';
import { ASYNC_TASK_JOB, type AsyncTaskPayload } from '../../commands/asyncTasks/asyncTaskJob.js';
import { failAsyncTask, runAsyncTask } from '../../commands/asyncTasks/runAsyncTask.js';

/** Requests sent with `allow_async: true` (src/commands/asyncTasks/). */
export const asyncTaskJobKind: JobKind<AsyncTaskPayload> = {
  name: ASYNC_TASK_JOB,
  slots: (config) => config.jobs.asyncTaskSlots,
  handler: (ctx) => ({
    run: (job) => runAsyncTask(ctx, job),
    fail: (trx, row, reason) => failAsyncTask(ctx, trx, row, reason),
  }),
};

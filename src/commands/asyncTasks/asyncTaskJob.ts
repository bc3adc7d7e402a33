/** The job kind that runs async tasks (src/jobs/kinds/asyncTask.ts); its subject is the task. */
export const ASYNC_TASK_JOB = 'async_task';

/** A task's job gives up after this many attempts that failed for a reason other than the request's own (then the task fails with internal_server_error). */
export const ASYNC_TASK_MAX_ATTEMPTS = 3;

export interface AsyncTaskPayload {
  taskId: string;
}

/** How long an ended task can still be polled (docs/decisions.md). */
export const ASYNC_TASK_RETENTION_MS = 24 * 60 * 60 * 1000;

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { AsyncTaskView } from '../../domain/views.js';
import { deleteAsyncTasksEndedBefore, insertAsyncTask } from '../../storage/repositories/asyncTasks.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { ASYNC_TASK_JOB, ASYNC_TASK_MAX_ATTEMPTS, ASYNC_TASK_RETENTION_MS, type AsyncTaskPayload } from './asyncTaskJob.js';
import type { AsyncRequest } from './operations.js';

/**
 * A request sent with `allow_async: true` (FACTS.md §10.6): stored as a task with the job that
 * runs it, in one transaction, so a task is never left without its job; the answer is the task,
 * queued. The request was checked against its route's schema already; what only its command
 * checks ends the task `failed`, as the service does.
 */
export async function startAsyncTask(ctx: AppContext, caller: Caller, operation: string, request: AsyncRequest): Promise<AsyncTaskView> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const id = `task_${ctx.newId().replace(/-/g, '')}`;
  await ctx.store.transaction(async (trx) => {
    // Tasks past their retention go as new ones come: no sweeper of its own.
    await deleteAsyncTasksEndedBefore(trx, new Date(now.getTime() - ASYNC_TASK_RETENTION_MS).toISOString());
    await insertAsyncTask(trx, {
      id,
      workspace_id: caller.workspaceId,
      connection_id: caller.connectionId,
      operation,
      request: JSON.stringify(request),
      status: 'queued',
      result: null,
      error: null,
      created_time: at,
      completed_time: null,
    });
    const payload: AsyncTaskPayload = { taskId: id };
    await enqueueJob(trx, {
      id: ctx.newId(),
      kind: ASYNC_TASK_JOB,
      workspaceId: caller.workspaceId,
      subjectId: id,
      payload,
      maxAttempts: ASYNC_TASK_MAX_ATTEMPTS,
      // Jobs run on the system clock, whatever the test clock says (docs/decisions.md).
      at: new Date().toISOString(),
    });
  });
  ctx.jobs.wake();
  return { id, operation, createdTime: at, status: 'queued', result: null, error: null };
}

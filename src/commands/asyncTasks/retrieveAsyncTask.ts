import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { AsyncTaskView } from '../../domain/views.js';
import { ApiError } from '../../errors/registry.js';
import { findAsyncTask, type AsyncTaskWithJob } from '../../storage/repositories/asyncTasks.js';
import { ASYNC_TASK_RETENTION_MS } from './asyncTaskJob.js';

/**
 * GET /v1/async_tasks/{task_id}. A task is seen only by the connection that started it, and not
 * after its retention: otherwise it is missing, in the words a missing one gets.
 */
export async function retrieveAsyncTask(ctx: AppContext, caller: Caller, taskId: string): Promise<AsyncTaskView> {
  const found = await findAsyncTask(ctx.store.db, taskId);
  const now = ctx.clock.now().getTime();
  const expired = found?.task.completed_time != null && Date.parse(found.task.completed_time) + ASYNC_TASK_RETENTION_MS <= now;
  if (!found || found.task.connection_id !== caller.connectionId || expired) {
    throw new ApiError('object_not_found', `Could not find async task with ID: ${taskId}.`);
  }
  return asyncTaskView(found);
}

function asyncTaskView({ task, job }: AsyncTaskWithJob): AsyncTaskView {
  const base = { id: task.id, operation: task.operation, createdTime: task.created_time, result: null, error: null };
  if (task.status === 'succeeded') return { ...base, status: 'succeeded', result: JSON.parse(task.result!) as AsyncTaskView['result'] };
  if (task.status === 'failed') return { ...base, status: 'failed', error: JSON.parse(task.error!) as AsyncTaskView['error'] };
  // Not ended: its job says where it is. A job back in the queue after a claim is a retry.
  if (job?.state === 'running') return { ...base, status: 'running' };
  return { ...base, status: job && job.attempts > 0 ? 'retrying' : 'queued' };
}

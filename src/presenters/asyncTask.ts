import type { AsyncTaskView } from '../domain/views.js';
import type { AsyncTaskBody } from '../schemas/asyncTasks.js';

/** What a task not yet ended tells its poller to wait: Folio runs it at once, so one second (docs/decisions.md). */
const POLL_AFTER_SECONDS = 1;

/** An async task (SDK `GetAsyncTaskResponse`): what follows `status` depends on it. */
export function presentAsyncTask(view: AsyncTaskView, options: { baseUrl: string }): AsyncTaskBody {
  const common = {
    object: 'async_task' as const,
    id: view.id,
    status_url: `${options.baseUrl}/v1/async_tasks/${view.id}`,
    created_time: view.createdTime,
    operation: { surface: 'rest' as const, name: view.operation },
  };
  switch (view.status) {
    case 'succeeded':
      return { ...common, status: 'succeeded', result: view.result!.body };
    case 'failed':
      return { ...common, status: 'failed', error: view.error! };
    default:
      return { ...common, status: view.status, poll_after_seconds: POLL_AFTER_SECONDS };
  }
}

import type { AppContext } from '../../context.js';
import { callerOfConnection } from '../../auth/authenticate.js';
import { ApiError } from '../../errors/registry.js';
import { JobLost, PermanentJobError, type RunningJob } from '../../domain/jobs.js';
import type { AsyncTaskView } from '../../domain/views.js';
import type { Db } from '../../storage/db.js';
import type { Store } from '../../storage/createStore.js';
import type { JobRow } from '../../storage/schema.js';
import { completeAsyncTask, findAsyncTask } from '../../storage/repositories/asyncTasks.js';
import { olderFactsOf } from '../../versioning/olderFacts.js';
import type { AsyncTaskPayload } from './asyncTaskJob.js';
import { ASYNC_OPERATIONS, type AsyncRequest } from './operations.js';

type ErrorBody = NonNullable<AsyncTaskView['error']>;

function errorBody(error: ApiError): ErrorBody {
  return {
    object: 'error',
    status: error.status,
    code: error.code,
    message: error.message,
    ...(error.additionalData ? { additional_data: error.additionalData } : {}),
  };
}

/**
 * Runs a task's request as the connection that sent it, found again now (a connection revoked
 * meanwhile fails the task as its request would fail), through the command its synchronous
 * route runs. An ApiError is the request's own answer: the task ends `failed` with it. Anything
 * else (the store busy, the process stopping) is left to the worker to retry; the task shows
 * `retrying` meanwhile, and `failed` with internal_server_error when the retries run out.
 *
 * The command's transactions run fenced on the job's lease (RunningJob.write): a worker that lost
 * the job writes nothing. The result is saved in the transaction that ends the job; a process
 * dying between the command's commit and that one runs the request again on the next claim
 * (docs/decisions.md, "Async tasks").
 */
export async function runAsyncTask(ctx: AppContext, job: RunningJob<AsyncTaskPayload>): Promise<void> {
  const { taskId } = job.payload;
  const found = await findAsyncTask(ctx.store.db, taskId);
  if (!found || found.task.status !== 'queued') return;
  const { task } = found;
  const operation = ASYNC_OPERATIONS[task.operation];
  if (!operation) throw new PermanentJobError(`no async operation named ${task.operation}`);
  const request = JSON.parse(task.request) as AsyncRequest;
  const fenced: AppContext = { ...ctx, store: fencedStore(ctx.store, job) };
  let end: { status: 'succeeded'; result: string } | { status: 'failed'; error: string };
  try {
    const caller = await callerOfConnection(ctx.store, task.connection_id);
    const body = operation.present(ctx, await operation.run(fenced, caller, request), request);
    end = { status: 'succeeded', result: JSON.stringify({ body, facts: olderFactsOf(body) }) };
  } catch (error) {
    if (error instanceof JobLost || job.signal.aborted || !(error instanceof ApiError) || retryable(error)) throw error;
    end = { status: 'failed', error: JSON.stringify(errorBody(error)) };
  }
  await job.write((trx) => completeAsyncTask(trx, taskId, { ...end, at: ctx.clock.now().toISOString() }), { finish: true });
}

/** Answers that say "try again" rather than "this request is wrong": the worker retries them. */
function retryable(error: ApiError): boolean {
  return error.code === 'conflict_error' || error.code === 'service_unavailable';
}

/** The store with every transaction run as the job's fenced write. */
function fencedStore(store: Store, job: RunningJob): Store {
  return {
    ...store,
    // RunningJob.write opens a transaction on the store and hands it over: the same Transaction the store's own would.
    transaction: (fn) => job.write((trx) => fn(trx as Parameters<typeof fn>[0])),
  };
}

/** The worker gave up on the task's job (its retries ran out): the task fails as a request failing inside would. */
export async function failAsyncTask(ctx: AppContext, trx: Db, row: JobRow, reason: string): Promise<void> {
  ctx.log.error({ task: row.subject_id, reason }, 'async task failed');
  await completeAsyncTask(trx, row.subject_id, {
    status: 'failed',
    error: JSON.stringify(errorBody(new ApiError('internal_server_error'))),
    at: ctx.clock.now().toISOString(),
  });
}

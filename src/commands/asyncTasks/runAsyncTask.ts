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

/** How a task ends, as saved. */
type TaskEnd = { status: 'succeeded'; result: string } | { status: 'failed'; error: string };

/**
 * Runs a task's request as the connection that sent it, found again now (a connection revoked
 * meanwhile fails the task as its request would fail), through the command its synchronous
 * route runs. An ApiError is the request's own answer: the task ends `failed` with it. Anything
 * else (the store busy, the process stopping) is left to the worker to retry; the task shows
 * `retrying` meanwhile, and `failed` with internal_server_error when the retries run out.
 *
 * The command's transaction runs as the job's fenced write (RunningJob.write: a worker that lost
 * the job writes nothing), and is held open until the command has answered: the task's result
 * and the job's end are saved in it, so the request's writes, its result and the job's end
 * commit together, and a process dying at any point runs the request again only if none of them
 * committed (docs/decisions.md, "Async tasks").
 */
export async function runAsyncTask(ctx: AppContext, job: RunningJob<AsyncTaskPayload>): Promise<void> {
  const { taskId } = job.payload;
  const found = await findAsyncTask(ctx.store.db, taskId);
  if (!found || found.task.status !== 'queued') return;
  const { task } = found;
  const operation = ASYNC_OPERATIONS[task.operation];
  if (!operation) throw new PermanentJobError(`no async operation named ${task.operation}`);
  const request = JSON.parse(task.request) as AsyncRequest;
  const write = new HeldWrite(ctx.store, job, taskId);
  let end: TaskEnd;
  try {
    const caller = await callerOfConnection(ctx.store, task.connection_id);
    const body = operation.present(ctx, await operation.run({ ...ctx, store: write.store }, caller, request), request);
    end = { status: 'succeeded', result: JSON.stringify({ body, facts: olderFactsOf(body) }) };
  } catch (error) {
    if (error instanceof JobLost || job.signal.aborted || !(error instanceof ApiError) || retryable(error)) {
      await write.abandon(error);
      throw error;
    }
    end = { status: 'failed', error: JSON.stringify(errorBody(error)) };
  }
  const ended = { ...end, at: ctx.clock.now().toISOString() };
  // A command that wrote nothing (it failed before its transaction) has its result saved alone.
  if (!(await write.finish(ended))) await job.write((trx) => completeAsyncTask(trx, taskId, ended), { finish: true });
}

/** What the held write is told once the command has answered: save this end, or roll back. */
type Outcome = { end: TaskEnd & { at: string } } | { error: unknown };

/**
 * The store a task's command runs on: its first transaction is the job's fenced write, held open
 * after the command's own work until finish() saves the task's end in it (or abandon() rolls it
 * back). While it is held, any further transaction of the command, and its reads, run in it: a
 * second connection would wait for this one on SQLite, and its writes would not be fenced.
 */
class HeldWrite {
  private held: { trx: Db; settle: (outcome: Outcome) => void; done: Promise<unknown> } | null = null;
  readonly store: Store;

  constructor(
    base: Store,
    private readonly job: RunningJob,
    private readonly taskId: string,
  ) {
    const heldTrx = () => this.held?.trx;
    const transaction: Store['transaction'] = (fn) => {
      const trx = heldTrx();
      return trx ? fn(trx as Parameters<typeof fn>[0]) : this.open(fn);
    };
    this.store = {
      ...base,
      get db() {
        return (heldTrx() as Store['db'] | undefined) ?? base.db;
      },
      transaction,
      snapshot: transaction,
    };
  }

  private open<T>(fn: (trx: Parameters<Parameters<Store['transaction']>[0]>[0]) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settle!: (outcome: Outcome) => void;
      const outcome = new Promise<Outcome>((r) => (settle = r));
      const done = this.job.write(
        async (trx) => {
          const value = await fn(trx as Parameters<typeof fn>[0]);
          this.held = { trx, settle, done };
          resolve(value);
          const told = await outcome;
          if ('error' in told) throw told.error;
          await completeAsyncTask(trx, this.taskId, told.end);
        },
        { finish: true },
      );
      // Failing before it was held, the command sees its transaction fail; after, finish() or abandon() does.
      done.catch(reject);
    });
  }

  /** Saves the task's end in the held write and commits it; false when the command held none. */
  async finish(end: TaskEnd & { at: string }): Promise<boolean> {
    if (!this.held) return false;
    this.held.settle({ end });
    await this.held.done;
    return true;
  }

  /** Rolls the held write back: the request runs again from the start on the next attempt. */
  async abandon(error: unknown): Promise<void> {
    if (!this.held) return;
    this.held.settle({ error });
    await this.held.done.catch(() => undefined);
  }
}

/** Answers that say "try again" rather than "this request is wrong": the worker retries them. */
function retryable(error: ApiError): boolean {
  return error.code === 'conflict_error' || error.code === 'service_unavailable';
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

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.js';
import type { WorkerSettings } from '../config.js';
import type { JobRow } from '../storage/schema.js';
import { JobLost, PermanentJobError, type JobHandler, type JobKind, type RunningJob } from '../jobs/jobKind.js';
import { claimJob, finishJob, holdJob, requeueJob, saveJobProgress } from '../storage/repositories/jobs.js';

const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Runs jobs from the store (../shared/STYLE.md "Background work that survives a crash") for the
 * kinds it is given (src/jobs/jobKind.ts), each with its own slots: a slot claims one job of its
 * kind at a time, keeps its lease alive while it runs, ends it, retries failures with backoff. Job scheduling uses the system clock, never the test clock: a fixed test clock must
 * not stop leases from expiring or retries from coming due.
 */
export class JobWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly running = new Map<string, AbortController>();
  /** The idle slots' wake-up calls. */
  private readonly sleepers = new Set<() => void>();
  private unlisten: (() => void) | null = null;
  private readonly handlers = new Map<string, JobHandler>();

  constructor(
    private readonly ctx: AppContext,
    /** Each kind with the slots this process gives it. */
    private readonly kinds: ReadonlyArray<{ kind: JobKind; slots: number }>,
    private readonly settings: Omit<WorkerSettings, 'meetingNotesSlots' | 'fileImportSlots' | 'asyncTaskSlots'>,
  ) {
    for (const { kind } of kinds) this.handlers.set(kind.name, kind.handler(ctx));
  }

  start(): void {
    this.unlisten = this.ctx.jobs.listen(() => this.wakeAll());
    for (const { kind, slots } of this.kinds) for (let slot = 0; slot < slots; slot++) this.loops.push(this.loop(kind));
  }

  /** Stops claiming, hands running jobs back to the queue (their attempt refunded), and waits for the slots to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unlisten?.();
    this.wakeAll();
    for (const controller of this.running.values()) controller.abort(new Error('worker shutting down'));
    await Promise.all(this.loops);
  }

  private async loop(kind: JobKind): Promise<void> {
    while (!this.stopping) {
      let job: JobRow | undefined;
      try {
        job = (await kind.paused?.(this.ctx)) ? undefined : await this.claim(kind.name);
      } catch (error) {
        this.ctx.log.error({ err: error, kind: kind.name }, 'claiming a job failed');
      }
      if (job) await this.runOne(job);
      else await this.idle();
    }
  }

  private async claim(kind: string): Promise<JobRow | undefined> {
    const now = Date.now();
    return claimJob(this.ctx.store.db, this.ctx.store.dialect, {
      workerId: this.id,
      kind,
      now: new Date(now).toISOString(),
      leaseUntil: new Date(now + this.settings.leaseMs).toISOString(),
    });
  }

  /** Waits for the poll interval or a ring of the bell, whichever comes first. */
  private async idle(): Promise<void> {
    // stop() rang while this slot was claiming: the ring is gone, and the poll may be minutes.
    if (this.stopping) return;
    const controller = new AbortController();
    const wake = () => controller.abort();
    this.sleepers.add(wake);
    await sleep(this.settings.pollMs, undefined, { signal: controller.signal }).catch(() => undefined);
    this.sleepers.delete(wake);
  }

  private wakeAll(): void {
    for (const wake of this.sleepers) wake();
  }

  private leaseUntil(): string {
    return new Date(Date.now() + this.settings.leaseMs).toISOString();
  }

  private async runOne(row: JobRow): Promise<void> {
    const handler = this.handlers.get(row.kind)!;
    const controller = new AbortController();
    this.running.set(row.id, controller);
    let lost = false;
    const heartbeat = setInterval(
      () => {
        holdJob(this.ctx.store.db, row.id, this.id, this.leaseUntil()).then(
          (held) => {
            if (!held) {
              lost = true;
              controller.abort(new JobLost(row.id));
            }
          },
          (error: unknown) => this.ctx.log.warn({ err: error, job: row.id }, 'job heartbeat failed'),
        );
      },
      Math.max(50, Math.floor(this.settings.leaseMs / 3)),
    );
    let finished = false;
    let payload: unknown;
    const job: RunningJob = {
      row,
      get payload() {
        return (payload ??= JSON.parse(row.payload));
      },
      signal: controller.signal,
      write: (fn, options = {}) =>
        this.ctx.store.transaction(async (trx) => {
          if (!(await holdJob(trx, row.id, this.id, this.leaseUntil()))) throw new JobLost(row.id);
          const result = await fn(trx);
          if (options.progress !== undefined) await saveJobProgress(trx, row.id, options.progress);
          if (options.finish) {
            await finishJob(trx, row.id, this.id, { state: 'done', at: new Date().toISOString() });
            finished = true;
          }
          return result;
        }),
    };
    const log = this.ctx.log.child({ job: row.id, kind: row.kind, subject: row.subject_id, attempt: row.attempts });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      if (row.attempts > row.max_attempts) throw new PermanentJobError(`gave up after ${row.max_attempts} attempts: the worker running it stopped each time`);
      log.info('job started');
      await handler.run(job);
      if (!finished) await job.write(async () => undefined, { finish: true });
      this.ctx.instruments.metrics.observeJob(row.kind, 'done', seconds());
      log.info('job done');
    } catch (error) {
      const outcome = await this.settle(
        handler,
        row,
        error,
        { lost: lost || error instanceof JobLost, shutdown: this.stopping && controller.signal.aborted },
        log,
      );
      if (outcome) this.ctx.instruments.metrics.observeJob(row.kind, outcome, seconds());
    } finally {
      clearInterval(heartbeat);
      this.running.delete(row.id);
    }
  }

  /** Records how an attempt that threw ends; answers the outcome the metrics count, if any. */
  private async settle(
    handler: JobHandler,
    row: JobRow,
    error: unknown,
    how: { lost: boolean; shutdown: boolean },
    log: AppContext['log'],
  ): Promise<'failed' | 'retried' | null> {
    const reason = error instanceof Error ? error.message : String(error);
    try {
      if (how.lost) {
        log.warn('job taken over by another worker; this attempt stops without writing');
        return null;
      }
      if (how.shutdown) {
        await requeueJob(this.ctx.store.db, row.id, this.id, { runAfter: new Date().toISOString(), refundAttempt: true });
        log.info('job handed back at shutdown');
        return null;
      }
      const permanent = error instanceof PermanentJobError || handler.permanent?.(error) === true;
      if (permanent || row.attempts >= row.max_attempts) {
        await this.ctx.store.transaction(async (trx) => {
          if (!(await holdJob(trx, row.id, this.id, this.leaseUntil()))) return;
          await handler.fail?.(trx, row, reason);
          await finishJob(trx, row.id, this.id, { state: 'failed', at: new Date().toISOString(), error: reason });
        });
        log.error({ err: error, reason }, 'job failed');
        return 'failed';
      }
      const delay = Math.min(MAX_BACKOFF_MS, this.settings.retryBaseMs * 2 ** (row.attempts - 1));
      await requeueJob(this.ctx.store.db, row.id, this.id, { runAfter: new Date(Date.now() + delay).toISOString(), error: reason });
      log.warn({ err: error, retry_in_ms: delay }, 'job attempt failed; it will be retried');
      return 'retried';
    } catch (settleError) {
      // The lease will run out and another claim retries the job.
      log.error({ err: settleError }, 'recording a job failure failed');
      return null;
    }
  }
}

import type { AppContext } from '../context.js';
import type { Config } from '../config.js';
import type { Db } from '../storage/db.js';
import type { JobRow } from '../storage/schema.js';
import type { RunningJob } from '../domain/jobs.js';

export { JobLost, PermanentJobError, type RunningJob } from '../domain/jobs.js';

/**
 * The job contract (docs/architecture.md "A job kind"): what src/worker/ runs, and all it knows of
 * a kind. A kind is one module under src/jobs/kinds/, listed in src/jobs/index.ts.
 */
export interface JobHandler<P = unknown> {
  run(job: RunningJob<P>): Promise<void>;
  /** Writes the job's failure into what it works on (a block's status), in the transaction that ends it. */
  fail?(trx: Db, row: JobRow, reason: string): Promise<void>;
  /** When a failure is not worth another attempt (besides PermanentJobError). */
  permanent?(error: unknown): boolean;
}

export interface JobKind<P = unknown> {
  /** The `kind` column of its jobs. */
  name: string;
  /** How many of its jobs one process runs at once (0: none here). */
  slots(config: Config): number;
  handler(ctx: AppContext): JobHandler<P>;
  /** Answers whether its jobs are held back (checked before every claim of this kind). */
  paused?(ctx: AppContext): Promise<boolean>;
  /** Run once when a process's workers start, before any claim (`slots` is what this process runs). */
  prepare?(ctx: AppContext, slots: number): Promise<void>;
}

import type { Db } from '../storage/db.js';
import type { JobRow } from '../storage/schema.js';

/**
 * What a job's code sees of the job running it (src/jobs/jobKind.ts is the whole contract). Here,
 * below the commands, so a command that does a job's work can take a RunningJob and throw
 * PermanentJobError without importing the worker that runs it.
 */
export interface RunningJob<P = unknown> {
  row: JobRow;
  /** The payload the job was enqueued with, parsed. */
  payload: P;
  /** Aborted when the job is lost or the worker shuts down: stop and throw. */
  signal: AbortSignal;
  /**
   * Runs `fn` in a transaction that first checks this worker still holds the job (throws JobLost
   * otherwise); `progress` is saved and, with `finish`, the job ends `done`, in that same
   * transaction: what the step wrote and the job's record of it commit together.
   */
  write<T>(fn: (trx: Db) => Promise<T>, options?: { progress?: unknown; finish?: boolean }): Promise<T>;
}

/** The job was taken over by another worker (this one's lease ran out): nothing more may be written. */
export class JobLost extends Error {
  constructor(id: string) {
    super(`job ${id} is no longer held by this worker`);
  }
}

/** Thrown by a handler for a failure no retry can mend (bad media, no engine, no credits): the job ends at once. */
export class PermanentJobError extends Error {}

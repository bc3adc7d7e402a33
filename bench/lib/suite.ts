import type { Comparison } from './compare.js';

/** Settings shared by every suite, from the command line (see docs/benchmarks.md). */
export interface BenchOptions {
  rounds: number;
  /** Seconds of load per measured run. */
  duration: number;
  /** Seconds of unrecorded load before each measured run. */
  warmup: number;
  connections: number;
  pipelining: number;
  /** Build dist/ before starting servers; off with --no-build when dist/ is known to be current. */
  build: boolean;
  /** Start Folio with --cpu-prof, profiles written under .bench/profiles. */
  profile: boolean;
  /** Folio's CLI script, relative to the repository or absolute: another build to compare (default dist/src/cli.js). */
  folioEntry: string;
}

/** What a suite hands back to run.ts, which prints it and records it. */
export interface SuiteReport {
  /** Store the measured Folio ran on, e.g. "sqlite" or "postgres 15.2". */
  store: string;
  comparison: Comparison;
  /** The figure the suite is judged by, one line, e.g. "Folio / bare: 61% (target ≥ 50%: met)". */
  verdict: string;
  /** Extra lines for the record (what was loaded, configuration). */
  notes: string[];
}

export interface Suite {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<SuiteReport>;
}

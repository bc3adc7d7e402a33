import type { Comparison } from './compare.js';
import type { BenchOptions } from './options.js';

/** What a suite hands back to run.ts, which prints it and records it. */
export interface SuiteReport {
  /** Store the measured Folio ran on, e.g. "sqlite" or "postgres 15.2". */
  store: string;
  comparison: Comparison;
  /** The figure the suite is judged by, one line, e.g. "Folio / bare: 61% (target ≥ 50%: met)". */
  verdict: string;
  /** Extra lines for the record (what was loaded, configuration). */
  notes: string[];
  /** A suite's own markdown (e.g. a side-by-side table), printed and recorded after the targets' table. */
  details?: string;
}

export interface Suite {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<SuiteReport>;
}

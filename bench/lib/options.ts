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
  /** Settings Folio is started with (`--folio-env NAME=VALUE`, repeatable; FOLIO_* names only), e.g. to measure a setting's cost. */
  folioEnv: Record<string, string>;
}

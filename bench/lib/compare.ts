import autocannon, { type Result } from 'autocannon';
import type { BenchOptions } from './options.js';
import { processCpuMicros } from './processCpu.js';

/** One HTTP endpoint under load; every request is the same. */
export interface Target {
  name: string;
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The serving process, when it is one process on this machine: its CPU per request is measured too. */
  pid?: number;
}

export interface RunStats {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /** The serving process's CPU time per request over the measured run, µs; null when not measured. */
  cpuPerRequest?: number | null;
}

export interface TargetResult {
  name: string;
  runs: RunStats[];
  medianRequestsPerSecond: number;
  medianP50: number;
  medianP99: number;
  medianCpuPerRequest?: number | null;
}

export interface Comparison {
  targets: TargetResult[];
  /** Non-2xx answers, connection errors and timeouts, warm-ups included; any one voids the figures. */
  failures: string[];
  options: BenchOptions;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function load(target: Target, options: BenchOptions, duration: number): Promise<Result> {
  return autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: options.connections,
    pipelining: options.pipelining,
    duration,
  });
}

function failuresOf(result: Result, label: string): string[] {
  const failures: string[] = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${count}× ${code}`);
    failures.push(`${label}: ${result.non2xx} non-2xx responses (${codes.join(', ')})`);
  }
  if (result.errors > 0) failures.push(`${label}: ${result.errors} connection errors (${result.timeouts} timeouts)`);
  return failures;
}

/**
 * Loads each target for `rounds` rounds, alternating which goes first (A B, B A, A B, …) so that
 * drift in the machine's load, which other processes on a shared machine cause, falls on every
 * target alike. Each measured run follows its own warm-up, since the other target ran in between.
 */
export async function compareTargets(targets: readonly Target[], options: BenchOptions, log: (line: string) => void): Promise<Comparison> {
  const runs = new Map<string, RunStats[]>(targets.map((t) => [t.name, []]));
  const failures: string[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const order = round % 2 === 1 ? targets : [...targets].reverse();
    for (const target of order) {
      if (options.warmup > 0) {
        const warm = await load(target, options, options.warmup);
        failures.push(...failuresOf(warm, `${target.name} warm-up ${round}`));
      }
      const cpuBefore = processCpuMicros(target.pid);
      const result = await load(target, options, options.duration);
      const cpuAfter = processCpuMicros(target.pid);
      failures.push(...failuresOf(result, `${target.name} round ${round}`));
      const stats: RunStats = {
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        requests: result.requests.total,
        cpuPerRequest: cpuBefore === null || cpuAfter === null || result.requests.total === 0 ? null : (cpuAfter - cpuBefore) / result.requests.total,
      };
      runs.get(target.name)!.push(stats);
      const cpu = stats.cpuPerRequest == null ? '' : `, server CPU ${stats.cpuPerRequest.toFixed(1)} µs/request`;
      log(`round ${round}/${options.rounds} ${target.name}: ${Math.round(stats.requestsPerSecond)} req/s, p99 ${stats.p99} ms${cpu}`);
    }
  }
  return { targets: targets.map((t) => summarise(t.name, runs.get(t.name)!)), failures, options };
}

function summarise(name: string, runs: RunStats[]): TargetResult {
  return {
    name,
    runs,
    medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
    medianP50: median(runs.map((r) => r.p50)),
    medianP99: median(runs.map((r) => r.p99)),
    medianCpuPerRequest: runs.every((r) => r.cpuPerRequest != null) ? median(runs.map((r) => r.cpuPerRequest!)) : null,
  };
}

/**
 * Comparisons of the same targets run one after another (each on processes of its own), as one:
 * their rounds in order, summarised again. Targets keep the first comparison's order.
 */
export function mergeComparisons(parts: readonly Comparison[], options: BenchOptions): Comparison {
  const names = parts[0]!.targets.map((t) => t.name);
  return {
    targets: names.map((name) =>
      summarise(
        name,
        parts.flatMap((part) => part.targets.find((t) => t.name === name)!.runs),
      ),
    ),
    failures: parts.flatMap((part) => part.failures),
    options,
  };
}

/** Throughput of `a` over `b`: the ratio of the medians, and each round's own ratio (paired in time). */
export function throughputRatio(comparison: Comparison, a: string, b: string): { ofMedians: number; perRound: number[] } {
  const ta = comparison.targets.find((t) => t.name === a)!;
  const tb = comparison.targets.find((t) => t.name === b)!;
  return {
    ofMedians: ta.medianRequestsPerSecond / tb.medianRequestsPerSecond,
    perRound: ta.runs.map((run, i) => run.requestsPerSecond / tb.runs[i].requestsPerSecond),
  };
}

/** Server CPU per request of `a` over `b` (medians), or null when either was not measured. */
export function cpuRatio(comparison: Comparison, a: string, b: string): { a: number; b: number; ratio: number } | null {
  const ca = comparison.targets.find((t) => t.name === a)!.medianCpuPerRequest;
  const cb = comparison.targets.find((t) => t.name === b)!.medianCpuPerRequest;
  return ca == null || cb == null ? null : { a: ca, b: cb, ratio: ca / cb };
}

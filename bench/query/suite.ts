import os from 'node:os';
import path from 'node:path';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { percentile } from '../lib/timedServer.js';
import { runQueryBench, summarize, verdict, type Timings } from './measure.js';
import { CASES } from './cases.js';

/**
 * The query benchmark as a suite of bench/run.ts (`npm run bench -- query`). Its size and place
 * come from the environment, since run.ts's options are about load, not data:
 * QUERY_BENCH_PAGES (default 100,000), QUERY_BENCH_DIR (default a temp dir per size),
 * QUERY_BENCH_ITERATIONS (default 50 per query and page per round; --rounds is the number of
 * rounds), QUERY_BENCH_BUDGET (seconds a query may take per round, default 60). The throughput table shows one connection's sequential rate (1000 / mean latency) over
 * the first pages; the per-query tables are printed by bench/query/main.ts, which --record writes.
 */
export const suite: Suite = {
  name: 'query',
  description:
    'POST /v1/data_sources/{id}/query on a generated data source: eight queries, first and next page, end to end, in the server and as hand-written SQL',
  async run(options) {
    const pages = Number(process.env.QUERY_BENCH_PAGES || 100_000);
    const result = await runQueryBench({
      pages,
      dir: path.resolve(process.env.QUERY_BENCH_DIR || path.join(os.tmpdir(), `folio-query-bench-${pages}`)),
      warmup: Math.max(1, options.warmup * 3),
      iterations: Number(process.env.QUERY_BENCH_ITERATIONS || 50),
      rounds: options.rounds,
      build: options.build,
      entry: options.folioEntry,
      profile: options.profile,
      budget: Number(process.env.QUERY_BENCH_BUDGET || 60),
      only: [],
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const target = (name: string, key: keyof Timings) => {
      const runs = result.stats.map((s) => {
        const samples = s.first[key];
        const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
        return { requestsPerSecond: 1000 / mean, p50: percentile(samples, 50), p99: percentile(samples, 99), requests: samples.length };
      });
      return {
        name,
        runs,
        medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
        medianP50: median(runs.map((r) => r.p50)),
        medianP99: median(runs.map((r) => r.p99)),
      };
    };
    const first = summarize(result.stats.map((s) => s.first));
    return {
      store: result.store,
      comparison: { targets: [target('e2e', 'e2e'), target('in server', 'server'), target('SQL', 'raw')], failures: [], options },
      verdict: verdict(result).replace('\n', '; '),
      notes: [
        `Data source: ${result.manifest.counts.pages.toLocaleString('en')} pages; "per round" columns are the eight queries in order: ${CASES.map((c) => `(${c.key}) ${c.label}`).join(', ')}`,
        `First pages, median of the queries: e2e p50 ${first.e2eP50.toFixed(2)} / p99 ${first.e2eP99.toFixed(2)} ms, server p50 ${first.serverP50.toFixed(2)} ms, SQL p50 ${first.rawP50.toFixed(2)} ms`,
      ],
    };
  },
};

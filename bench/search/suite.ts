import os from 'node:os';
import path from 'node:path';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { percentile, runSearchBench, summarize, verdict, QUERIES } from './measure.js';

/**
 * The search benchmark as a suite of bench/run.ts (`npm run bench -- search`). Its size and place
 * come from the environment, since run.ts's options are about load, not data:
 * SEARCH_BENCH_PAGES (default 1,000,000), SEARCH_BENCH_DIR (default a temp dir per size),
 * SEARCH_BENCH_ITERATIONS (default 100 per query per round; --rounds is the number of rounds).
 * The throughput table shows one connection's sequential rate (1000 / mean latency); the
 * per-query table is in the notes, and bench/search/main.ts --record writes it as a table.
 */
export const suite: Suite = {
  name: 'search',
  description: 'POST /v1/search on a generated workspace: ten queries, common to rare, end to end, in the server and as raw SQL',
  async run(options) {
    const pages = Number(process.env.SEARCH_BENCH_PAGES || 1_000_000);
    const result = await runSearchBench({
      pages,
      dir: path.resolve(process.env.SEARCH_BENCH_DIR || path.join(os.tmpdir(), `folio-search-bench-${pages}`)),
      warmup: Math.max(1, options.warmup * 5),
      iterations: Number(process.env.SEARCH_BENCH_ITERATIONS || 100),
      rounds: options.rounds,
      build: options.build,
      entry: options.folioEntry,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    const wide = result.stats.filter((s) => s.connection === 'wide');
    const target = (name: string, key: 'e2e' | 'server' | 'raw') => {
      const runs = QUERIES.map((query) => {
        const samples = wide.find((s) => s.query === query)![key];
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
    const overall = summarize(result, 'wide');
    return {
      store: result.store,
      comparison: { targets: [target('e2e', 'e2e'), target('in server', 'server'), target('raw SQL', 'raw')], failures: [], options },
      verdict: verdict(result),
      notes: [
        `Workspace: ${(result.manifest.counts.pages + result.manifest.counts.dataSources).toLocaleString('en')} pages and data sources; "per round" columns are the ten queries in order: ${QUERIES.join(', ')}`,
        `All ten queries, wide connection: e2e p50 ${overall.e2eP50.toFixed(2)} / p99 ${overall.e2eP99.toFixed(2)} ms, server p50 ${overall.serverP50.toFixed(2)} ms, raw SQL p50 ${overall.rawP50.toFixed(2)} ms`,
      ],
    };
  },
};

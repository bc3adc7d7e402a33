import path from 'node:path';
import type { Suite } from '../lib/suite.js';
import { markdownTable, runMemorySoak, summaryLine, verdict } from './soak.js';

const DEFAULT_DIR = '/work/bench-data/memory-1m';

/**
 * The memory soak as a suite of bench/run.ts (`npm run bench -- memory`). Its length, rate and
 * place come from the environment, since run.ts's --duration is about short measured runs:
 * MEMORY_BENCH_MINUTES (default 30), MEMORY_BENCH_RATE (requests/s over all connections, default
 * 200), MEMORY_BENCH_PROCESSES (default 1; FOLIO_PROCESSES of the server), MEMORY_BENCH_DIR (a
 * writable copy of a generated workspace, default /work/bench-data/memory-1m). --connections is
 * autocannon's (capped at the rate). bench/memory/main.ts does the same with flags.
 */
export const suite: Suite = {
  name: 'memory',
  description: 'resident memory of the compiled server on a generated workspace under a sustained mixed load at a fixed rate (issue 29 item 9)',
  async run(options) {
    const result = await runMemorySoak({
      dir: path.resolve(process.env.MEMORY_BENCH_DIR || DEFAULT_DIR),
      seconds: Math.round(Number(process.env.MEMORY_BENCH_MINUTES || 30) * 60),
      rate: Number(process.env.MEMORY_BENCH_RATE || 200),
      connections: options.connections,
      processes: Number(process.env.MEMORY_BENCH_PROCESSES || 1),
      sampleSeconds: 5,
      folioEnv: options.folioEnv,
      build: options.build,
      entry: options.folioEntry,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    return {
      store: result.store,
      comparison: {
        targets: [
          {
            name: `mixed load at ${result.config.rate} req/s`,
            runs: [{ requestsPerSecond: result.averageRate, p50: result.latencyP50, p99: result.latencyP99, requests: result.requests }],
            medianRequestsPerSecond: result.averageRate,
            medianP50: result.latencyP50,
            medianP99: result.latencyP99,
          },
        ],
        failures: result.non2xx + result.errors > 0 ? [summaryLine(result)] : [],
        options: { ...options, rounds: 1, warmup: 0, duration: result.config.seconds },
      },
      verdict: verdict(result),
      notes: [
        `Workspace: ${(result.manifest.counts.pages + result.manifest.counts.dataSources).toLocaleString('en')} pages and data sources (a writable copy), ${result.sampled.pages} pages and ${result.sampled.dataSources} data sources loaded; FOLIO_PROCESSES=${result.config.processes}`,
        summaryLine(result),
      ],
      details: markdownTable(result),
    };
  },
};

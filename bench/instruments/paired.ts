import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { compareTargets, median, mergeComparisons, type Comparison, type Target } from '../lib/compare.js';
import { buildProject, cleanEnv, freePort, REPO_ROOT, spawnServer, tempDir } from '../lib/processes.js';
import { personalCaller } from '../lib/personalCaller.js';
import type { Suite } from '../lib/suite.js';
import { OFF, TARGET_RATIO } from './suite.js';

const PATH = '/v1/users/me';
/** Alternations of the two servers within each process. */
const ALTERNATIONS = 6;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/**
 * The instruments suite's comparison with both servers in one process. This VM gives each new
 * process a speed it keeps for life (docs/benchmarks.md, "Request log and metrics at 23:08"), so
 * two processes compare their luck as much as their work; two servers in one process share it, and
 * the process's CPU over a run of one of them is that server's cost. Judged by CPU per request,
 * which is what the log and metrics add; a round is one process.
 */
export const suite: Suite = {
  name: 'instruments-paired',
  description: 'GET /v1/users/me on two Folio servers in one process, request log and metrics on beside off: server CPU per request',
  async run(options) {
    if (options.build) await buildProject();
    const rounds: Comparison[] = [];
    const differences: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const dirs = [tempDir('folio-bench-'), tempDir('folio-bench-')];
      const servers = await Promise.all(
        ['on', 'off'].map(async (name, i) => ({
          name: `instruments ${name}`,
          port: await freePort(),
          dataDir: dirs[i]!.path,
          adminToken: `bench-${randomBytes(16).toString('hex')}`,
          env: { FOLIO_LOG_LEVEL: 'warn', FOLIO_RATE_LIMIT: '1000000', FOLIO_PROCESSES: '1', ...options.folioEnv, ...(name === 'off' ? OFF : {}) },
        })),
      );
      const env = cleanEnv((name) => name.startsWith('FOLIO_') || name === 'DATABASE_URL' || name === 'REDIS_URL');
      const host = await spawnServer({
        name: 'folio pair',
        args: [path.join(REPO_ROOT, 'bench/instruments/pairedServers.mjs'), path.dirname(path.resolve(REPO_ROOT, options.folioEntry)), JSON.stringify(servers)],
        env,
        // Started in order: the second answering means both are up.
        port: servers[1]!.port,
        readyPath: '/readyz',
      });
      try {
        const targets: Target[] = [];
        for (const server of servers) {
          const url = `http://127.0.0.1:${server.port}`;
          const admin = async (method: string, urlPath: string, body?: unknown) => {
            const response = await fetch(`${url}/admin/v1${urlPath}`, {
              method,
              headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
            if (response.status !== 200) throw new Error(`admin ${method} ${urlPath} answered ${response.status}: ${await response.text()}`);
            return response.json();
          };
          targets.push({ name: server.name, url: url + PATH, headers: await personalCaller({ admin }), pid: host.child.pid });
        }
        process.stderr.write(`round ${round}/${options.rounds}, a new process serving both:\n`);
        const comparison = await compareTargets(targets, { ...options, rounds: ALTERNATIONS }, (line) => process.stderr.write(`  ${line}\n`));
        const [on, off] = comparison.targets.map((t) => t.medianCpuPerRequest!);
        differences.push(on! - off!);
        process.stderr.write(`  this process: on ${on!.toFixed(1)} µs, off ${off!.toFixed(1)} µs per request (+${(on! - off!).toFixed(1)})\n`);
        rounds.push(comparison);
      } finally {
        await host.stop();
        for (const dir of dirs) dir.remove();
      }
    }
    const comparison = mergeComparisons(rounds, options);
    const perProcess = rounds.map((r) => r.targets[0]!.medianCpuPerRequest! / r.targets[1]!.medianCpuPerRequest!);
    const ratio = median(perProcess);
    const met = 1 / ratio >= TARGET_RATIO;
    return {
      store: process.env.DATABASE_URL ? 'postgres' : 'sqlite',
      comparison,
      verdict:
        `server CPU per request, on / off within each process: median ${pct(ratio)} (per process: ${perProcess.map(pct).join(', ')}; ` +
        `+${median(differences).toFixed(1)} µs median); the throughput it allows, off's CPU over on's: ${pct(1 / ratio)}; target ≥ ${pct(TARGET_RATIO)}: ${met ? 'met' : 'NOT met'}`,
      notes: [
        `each round a new process serving both servers, ${ALTERNATIONS} alternations of ${options.duration} s (after ${options.warmup} s of warm-up each); CPU of the one process over each run`,
        `both: \`GET ${PATH}\` from ${options.folioEntry}, Service-Version ${LATEST_VERSION}, personal connection acting for a person, logs at warn, rate limiter on (in-memory, budget never reached)`,
        `instruments on: defaults (request log of 1,000 entries with bodies, Prometheus histogram per route, default process metrics); off: FOLIO_METRICS=0 FOLIO_REQUEST_LOG_SIZE=0`,
      ],
    };
  },
};

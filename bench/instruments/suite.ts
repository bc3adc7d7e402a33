import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { compareTargets, cpuRatio, mergeComparisons, throughputRatio, type Comparison, type Target } from '../lib/compare.js';
import { startFolioServer, type FolioServer } from '../lib/folio.js';
import { buildProject } from '../lib/processes.js';
import { personalCaller } from '../lib/personalCaller.js';
import type { Suite } from '../lib/suite.js';

/** Issue 26's acceptance line: the request log and metrics cost users-me under 5% of its throughput. */
export const TARGET_RATIO = 0.95;
const PATH = '/v1/users/me';
/** What turns both off (src/config.ts): the root's onResponse hook then records nothing. */
export const OFF = { FOLIO_METRICS: '0', FOLIO_REQUEST_LOG_SIZE: '0' };

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The users-me suite's caller, on each server. */
async function target(name: string, folio: FolioServer): Promise<Target> {
  const headers = await personalCaller(folio);
  const first = await fetch(folio.url + PATH, { headers });
  if (first.status !== 200) throw new Error(`${name}: ${PATH} answered ${first.status}: ${await first.text()}`);
  // Its CPU is one process's only when Folio serves from one (FOLIO_PROCESSES=1, the bench's default).
  const pid = (process.env.FOLIO_PROCESSES ?? '1') === '1' ? folio.child.pid : undefined;
  return { name, url: folio.url + PATH, headers, pid };
}

export const suite: Suite = {
  name: 'instruments',
  description: 'GET /v1/users/me on Folio with the request log and metrics on (the default) beside the same build with both off',
  async run(options) {
    if (options.build) await buildProject();
    // Two new servers each round. A process keeps for its life whatever made it fast or slow: on
    // this shared VM two processes of one build differed by 10–40% for a whole run, in either
    // direction, so long-lived servers measured which process was luckier (docs/benchmarks.md).
    const rounds: Comparison[] = [];
    let store = '';
    for (let round = 1; round <= options.rounds; round++) {
      const [on, off] = await Promise.all([
        startFolioServer({ profile: options.profile, entry: options.folioEntry, env: options.folioEnv }),
        startFolioServer({ profile: false, entry: options.folioEntry, env: { ...options.folioEnv, ...OFF } }),
      ]);
      try {
        store = on.store;
        const targets = [await target('instruments on', on), await target('instruments off', off)];
        process.stderr.write(`round ${round}/${options.rounds}, new servers:\n`);
        // One round each, the first going first in odd rounds (compareTargets alternates within a call).
        rounds.push(
          await compareTargets(round % 2 === 1 ? targets : [...targets].reverse(), { ...options, rounds: 1 }, (line) => process.stderr.write(`  ${line}\n`)),
        );
      } finally {
        await Promise.all([on.stop(), off.stop()]);
      }
    }
    const comparison = mergeComparisons(rounds, options);
    const ratio = throughputRatio(comparison, 'instruments on', 'instruments off');
    const cpu = cpuRatio(comparison, 'instruments on', 'instruments off');
    const met = ratio.ofMedians >= TARGET_RATIO;
    return {
      store,
      comparison,
      verdict: `on / off: ${pct(ratio.ofMedians)} of the throughput without them (per round: ${ratio.perRound.map(pct).join(', ')}); target ≥ ${pct(TARGET_RATIO)}: ${met ? 'met' : 'NOT met'}`,
      notes: [
        ...(cpu
          ? [`server CPU per request (median of rounds): on ${cpu.a.toFixed(1)} µs, off ${cpu.b.toFixed(1)} µs (on / off ${(cpu.ratio * 100).toFixed(1)}%)`]
          : []),
        `both: \`GET ${PATH}\` from ${options.folioEntry}, Service-Version ${LATEST_VERSION}, personal connection acting for a person, logs at warn, rate limiter on (in-memory, budget never reached)`,
        `instruments on: defaults (request log of 1,000 entries with bodies, Prometheus histogram per route, default process metrics); off: FOLIO_METRICS=0 FOLIO_REQUEST_LOG_SIZE=0`,
      ],
    };
  },
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { loadConfig } from '../../src/config.js';
import { createCore } from '../../src/core.js';
import { prepareImport } from '../../src/commands/fixtures/importFixture.js';
import { loadSeedAtStart, resetToSeed } from '../../src/commands/fixtures/seedStore.js';
import { seedFixture } from './seedFixture.js';

const PAGES = 1000;
const SAMPLES = 15;
const TARGET_MS = 200;

/**
 * `POST /admin/v1/reset {to: "seed"}` without HTTP around it: a core on a fresh store (SQLite
 * unless DATABASE_URL), seeded with a 1,000-page fixture, then reset to that seed again and again
 * (issue 26 item 3: under 200 ms on SQLite). The first resets are not timed.
 */
export const suite: Suite = {
  name: 'reset',
  description: `reset to a ${PAGES}-page seed (empty the store, write the seed again, one transaction)`,
  async run(options) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-reset-'));
    const core = await createCore(
      loadConfig({ FOLIO_DATA_DIR: dataDir, FOLIO_LOG_LEVEL: 'silent', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) }),
    );
    try {
      const planned = performance.now();
      const seed = await prepareImport(core, seedFixture(PAGES), null);
      const planMs = performance.now() - planned;
      await loadSeedAtStart(core, seed);
      for (let i = 0; i < 3; i++) await resetToSeed(core, seed);
      const samples: number[] = [];
      // CPU time too: on a shared machine the wall clock also counts waiting for a core, while
      // SQLite's work runs on this process's thread (better-sqlite3 is synchronous).
      const cpu: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        await resetToSeed(core, seed);
        const used = process.cpuUsage(cpuStarted);
        cpu.push((used.user + used.system) / 1000);
        samples.push(performance.now() - started);
      }
      const sorted = [...samples].sort((a, b) => a - b);
      const middle = median(samples);
      const runs = samples.map((ms) => ({ requestsPerSecond: 1000 / ms, p50: ms, p99: ms, requests: 1 }));
      const { plan } = seed;
      return {
        store: core.store.dialect.name,
        comparison: {
          targets: [
            {
              name: `reset to a ${PAGES}-page seed`,
              runs: runs.slice(0, 5),
              medianRequestsPerSecond: median(runs.map((r) => r.requestsPerSecond)),
              medianP50: middle,
              medianP99: sorted[sorted.length - 1],
            },
          ],
          failures: [],
          options,
        },
        verdict: `reset to a ${PAGES}-page seed: median ${middle.toFixed(1)} ms wall, ${median(cpu).toFixed(1)} ms CPU (target < ${TARGET_MS} ms on SQLite: ${middle < TARGET_MS ? 'met' : 'NOT met'})`,
        notes: [
          `${SAMPLES} timed resets after 3 untimed ones, in process (no HTTP); "requests/s" is resets per second, p50 the median and p99 the slowest, in ms.`,
          `CPU time of this process per reset (user + system), median: ${median(cpu).toFixed(1)} ms; per run: ${cpu.map((v) => v.toFixed(0)).join(', ')}.`,
          `Seed: ${plan.objects.filter((o) => o.object === 'page').length} pages (${Math.floor(PAGES * 0.8)} database rows of 6 properties, the rest pages of 3 blocks), ${plan.objects.length} objects, ${plan.values.length} property values, ${plan.closure.length} closure rows; read and planned once at start in ${planMs.toFixed(0)} ms.`,
        ],
      };
    } finally {
      await core.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

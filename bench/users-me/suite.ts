import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { compareTargets, cpuRatio, throughputRatio, type Target } from '../lib/compare.js';
import { startFolioServer } from '../lib/folio.js';
import { personalCaller } from '../lib/personalCaller.js';
import { buildProject, cleanEnv, freePort, spawnServer, tempDir, type ServerProcess } from '../lib/processes.js';
import type { Suite } from '../lib/suite.js';

/** The issue's acceptance line: Folio at half the bare route's throughput or better. */
const TARGET_RATIO = 0.5;
const PATH = '/v1/users/me';

const fastifyVersion = (createRequire(import.meta.url)('fastify/package.json') as { version: string }).version;
const pct = (v: number) => `${Math.round(v * 100)}%`;
const settings = (env: Record<string, string>) =>
  Object.keys(env).length === 0
    ? ''
    : `, with ${Object.entries(env)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ')}`;

export const suite: Suite = {
  name: 'users-me',
  description: 'GET /v1/users/me on Folio beside a bare Fastify route answering JSON of the same size',
  async run(options) {
    if (options.build) await buildProject();
    const oneProcess = (process.env.FOLIO_PROCESSES ?? '1') === '1';
    const folio = await startFolioServer({ profile: options.profile, entry: options.folioEntry, env: options.folioEnv });
    const tmp = tempDir('folio-bench-bare-');
    let bare: ServerProcess | null = null;
    try {
      const headers = await personalCaller(folio);

      const first = await fetch(folio.url + PATH, { headers });
      const bytes = Buffer.from(await first.arrayBuffer());
      if (first.status !== 200) throw new Error(`folio ${PATH} answered ${first.status}: ${bytes.toString()}`);
      const bodyFile = path.join(tmp.path, 'body.json');
      fs.writeFileSync(bodyFile, bytes);

      const port = await freePort();
      bare = await spawnServer({
        name: 'bare fastify',
        args: ['--import', 'tsx', 'bench/users-me/bareServer.ts'],
        env: { ...cleanEnv((name) => name.startsWith('BARE_')), BARE_PORT: String(port), BARE_BODY_FILE: bodyFile },
        port,
        readyPath: PATH,
      });
      const mirrored = Buffer.from(await (await fetch(bare.url + PATH, { headers })).arrayBuffer());
      if (!mirrored.equals(bytes)) throw new Error(`the bare route answers ${mirrored.length} bytes, Folio ${bytes.length}; they must match`);

      const targets: Target[] = [
        // Its CPU is one process's only when Folio serves from one (FOLIO_PROCESSES=1, the bench's default).
        { name: 'folio', url: folio.url + PATH, headers, pid: oneProcess ? folio.child.pid : undefined },
        { name: 'bare fastify', url: bare.url + PATH, headers, pid: bare.child.pid },
      ];
      const comparison = await compareTargets(targets, options, (line) => process.stderr.write(`${line}\n`));
      const ratio = throughputRatio(comparison, 'folio', 'bare fastify');
      const cpu = cpuRatio(comparison, 'folio', 'bare fastify');
      const met = ratio.ofMedians >= TARGET_RATIO;
      return {
        store: folio.store,
        comparison,
        verdict: `Folio / bare: ${pct(ratio.ofMedians)} of the bare route's requests/s (per round: ${ratio.perRound.map(pct).join(', ')}); target ≥ ${pct(TARGET_RATIO)}: ${met ? 'met' : 'NOT met'}`,
        notes: [
          ...(cpu
            ? [
                `server CPU per request (median of rounds): folio ${cpu.a.toFixed(1)} µs, bare fastify ${cpu.b.toFixed(1)} µs (Folio ${cpu.ratio.toFixed(2)}× the bare route's)`,
              ]
            : []),
          `folio: \`GET ${PATH}\` from ${options.folioEntry}, Service-Version ${LATEST_VERSION}, personal connection acting for a person, logs at warn, rate limiter on (in-memory, budget never reached)${settings(options.folioEnv)}`,
          `bare fastify: Fastify ${fastifyVersion} with default options (logger off), one route answering the same ${bytes.length}-byte JSON`,
        ],
      };
    } finally {
      await Promise.all([folio.stop(), bare?.stop()]);
      tmp.remove();
    }
  },
};

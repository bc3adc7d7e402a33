import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { startFolioServer } from '../lib/folio.js';
import { buildProject, freePort, spawnServer, tempDir } from '../lib/processes.js';

const MIB = 1024 * 1024;
/** 100 MB in five 20 MiB parts (the most a part may hold), the last one shorter. */
const TOTAL = 100_000_000;
const PART = 20 * MIB;

/**
 * `npm run bench -- uploads`: a 100 MB multi-part upload to Folio and serving it back through its
 * signed link, beside a bare Node HTTP server writing and reading the same bytes with plain
 * streams (bench/uploads/plainServer.ts), both as their own processes, alternating for --rounds
 * rounds. The table's "requests/s" column is MB/s here; p50 is the milliseconds of one 100 MB
 * transfer. Folio's peak resident memory during each transfer is read from /proc (Linux).
 */
export const suite: Suite = {
  name: 'uploads',
  description: 'a 100 MB multi-part upload and its download through the signed link, beside plain Node streams to a file',
  async run(options) {
    if (options.build) await buildProject();
    const bytes = Buffer.alloc(TOTAL);
    for (let i = 0; i < TOTAL; i += 4096) bytes.writeUInt32LE((i * 2654435761) >>> 0, i);
    const digest = createHash('sha256').update(bytes).digest('hex');

    const folio = await startFolioServer({ profile: options.profile, entry: options.folioEntry });
    const plainDir = tempDir('folio-bench-plain-');
    const plainPort = await freePort();
    const plain = await spawnServer({
      name: 'plain',
      args: ['--import', 'tsx', 'bench/uploads/plainServer.ts'],
      env: { PATH: process.env.PATH, PLAIN_PORT: String(plainPort), PLAIN_DIR: plainDir.path },
      port: plainPort,
      readyPath: '/ready',
    });
    try {
      const workspace = await folio.admin('POST', '/workspaces', { name: 'Bench' });
      const connection = await folio.admin('POST', `/workspaces/${workspace.id}/connections`, {
        name: 'bench',
        kind: 'internal',
        capabilities: ['read_content', 'insert_content', 'update_content'],
      });
      const page = await folio.admin('POST', `/workspaces/${workspace.id}/pages`, { title: 'Uploads' });
      await folio.admin('POST', `/connections/${connection.id}/grants`, { object_id: page.id });
      const api = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${folio.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${connection.token}`, 'Notion-Version': '2026-03-11', 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json: any = await response.json();
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
        return json;
      };
      const pid = folio.child.pid!;
      const peakDuring = async (run: () => Promise<void>): Promise<{ ms: number; peakMiB: number | null }> => {
        const measurable = fs.existsSync(`/proc/${pid}/clear_refs`);
        if (measurable) fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
        const started = performance.now();
        await run();
        const ms = performance.now() - started;
        const peak = measurable ? Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmHWM:\s+(\d+) kB/m)![1]) / 1024 : null;
        return { ms, peakMiB: peak };
      };

      const folioUpload = async (): Promise<string> => {
        const parts = Math.ceil(TOTAL / PART);
        const upload = await api('POST', '/v1/file_uploads', { mode: 'multi_part', number_of_parts: parts, filename: 'bench.bin' });
        for (let n = 1; n <= parts; n++) {
          const form = new FormData();
          form.append('file', new Blob([bytes.subarray((n - 1) * PART, Math.min(TOTAL, n * PART)) as Uint8Array<ArrayBuffer>]), 'bench.bin');
          form.append('part_number', String(n));
          const response = await fetch(`${folio.url}/v1/file_uploads/${upload.id}/send`, {
            method: 'POST',
            headers: { authorization: `Bearer ${connection.token}`, 'Notion-Version': '2026-03-11' },
            body: form,
          });
          if (!response.ok) throw new Error(`send part ${n}: ${response.status} ${await response.text()}`);
        }
        await api('POST', `/v1/file_uploads/${upload.id}/complete`);
        const block = await api('PATCH', `/v1/blocks/${page.id}/children`, { children: [{ file: { file_upload: { id: upload.id } } }] });
        return block.results[0].file.file.url as string;
      };
      const readAll = async (url: string) => {
        const response = await fetch(url);
        const hash = createHash('sha256');
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
        if (hash.digest('hex') !== digest) throw new Error(`${url}: the bytes read back differ`);
      };

      const runs = {
        folioUp: [] as number[],
        plainUp: [] as number[],
        folioDown: [] as number[],
        plainDown: [] as number[],
        upPeak: [] as number[],
        downPeak: [] as number[],
      };
      // One unmeasured round first: module loading and the store's first writes are not the steady state.
      await readAll(await folioUpload());
      for (let round = 0; round < options.rounds; round++) {
        let url = '';
        const up = await peakDuring(async () => {
          url = await folioUpload();
        });
        runs.folioUp.push(up.ms);
        if (up.peakMiB !== null) runs.upPeak.push(up.peakMiB);
        const down = await peakDuring(() => readAll(url));
        runs.folioDown.push(down.ms);
        if (down.peakMiB !== null) runs.downPeak.push(down.peakMiB);
        let started = performance.now();
        const put = await fetch(`${plain.url}/file`, { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer> });
        if (!put.ok) throw new Error(`plain PUT: ${put.status}`);
        runs.plainUp.push(performance.now() - started);
        started = performance.now();
        await readAll(`${plain.url}/file`);
        runs.plainDown.push(performance.now() - started);
        process.stderr.write(
          `round ${round + 1}: upload ${up.ms.toFixed(0)} ms (plain ${runs.plainUp.at(-1)!.toFixed(0)}), download ${down.ms.toFixed(0)} ms (plain ${runs.plainDown.at(-1)!.toFixed(0)})\n`,
        );
      }

      const target = (name: string, samples: number[]) => {
        const perRun = samples.map((ms) => ({ requestsPerSecond: TOTAL / 1e6 / (ms / 1000), p50: ms, p99: ms, requests: 1 }));
        return {
          name,
          runs: perRun,
          medianRequestsPerSecond: median(perRun.map((r) => r.requestsPerSecond)),
          medianP50: median(samples),
          medianP99: median(samples),
        };
      };
      const ratio = (mine: number[], base: number[]) => median(base) / median(mine);
      const upRatio = ratio(runs.folioUp, runs.plainUp);
      const downRatio = ratio(runs.folioDown, runs.plainDown);
      const met = (r: number) => (r >= 0.5 ? 'met' : 'NOT met');
      return {
        store: folio.store,
        comparison: {
          targets: [
            target('folio upload', runs.folioUp),
            target('plain write', runs.plainUp),
            target('folio download', runs.folioDown),
            target('plain read', runs.plainDown),
          ],
          failures: [],
          options,
        },
        verdict: `upload ${(upRatio * 100).toFixed(0)}% of plain streams (target ≥ 50%: ${met(upRatio)}), download ${(downRatio * 100).toFixed(0)}% (${met(downRatio)})`,
        notes: [
          'Throughput columns are MB/s (10^6 bytes); p50/p99 are the milliseconds of one 100 MB transfer (one per round).',
          `Folio's peak resident memory (VmHWM, reset before each transfer): upload median ${runs.upPeak.length ? median(runs.upPeak).toFixed(0) : 'n/a'} MiB, download median ${runs.downPeak.length ? median(runs.downPeak).toFixed(0) : 'n/a'} MiB.`,
          `Upload: ${Math.ceil(TOTAL / PART)} parts of at most 20 MiB sent one after another, then complete and attach; download through the signed link, hashed as it arrives.`,
        ],
      };
    } finally {
      await folio.stop();
      await plain.stop();
      plainDir.remove();
    }
  },
};

import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { startFolioServer, type FolioServer } from '../lib/folio.js';
import { buildProject, tempDir } from '../lib/processes.js';
import { ffmpegPath } from '../../src/processing/media/ffmpegPath.js';
import { decodeToWav } from '../../src/processing/media/decodeAudio.js';
import { createTranscriber } from '../../src/processing/transcription/createTranscriber.js';
import { loadConfig } from '../../src/config.js';
import { MEETING_SCRIPT, synthesizeSpeech } from '../../test/processing/speech.js';

const run = promisify(execFile);
const VERSION = '2026-03-11';
const FIVE_MINUTES = 300;
const QUEUED = 10;

/** Word error rate: word-level edit distance over the reference's length (words lowercased, punctuation dropped). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/\[[\d:]+\]/g, ' ')
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const ref = words(reference);
  const hyp = words(hypothesis);
  let previous = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const current = [i];
    for (let j = 1; j <= hyp.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1));
    previous = current;
  }
  return ref.length === 0 ? 0 : previous[hyp.length] / ref.length;
}

/** A session on one Folio: an internal connection with a shared page, and the calls a client makes. */
async function session(folio: FolioServer) {
  const workspace = await folio.admin('POST', '/workspaces', { name: 'Bench' });
  const connection = await folio.admin('POST', `/workspaces/${workspace.id}/connections`, {
    name: 'bench',
    kind: 'internal',
    capabilities: ['read_content', 'insert_content', 'update_content'],
  });
  const page = await folio.admin('POST', `/workspaces/${workspace.id}/pages`, { title: 'Meetings' });
  await folio.admin('POST', `/connections/${connection.id}/grants`, { object_id: page.id });
  const headers = { authorization: `Bearer ${connection.token}`, 'Notion-Version': VERSION };
  const api = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(`${folio.url}${urlPath}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = await response.json();
    if (!response.ok) throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const upload = async (bytes: Buffer, filename: string): Promise<string> => {
    const created = await api('POST', '/v1/file_uploads', { filename });
    const form = new FormData();
    form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'audio/wav' }), filename);
    const response = await fetch(`${folio.url}/v1/file_uploads/${created.id}/send`, { method: 'POST', headers, body: form });
    if (!response.ok) throw new Error(`send: ${response.status} ${await response.text()}`);
    return created.id as string;
  };
  const create = (uploadId: string) =>
    api('POST', '/v1/blocks/meeting_notes', { source: { type: 'file_upload', file_upload_id: uploadId }, parent: { type: 'page_id', page_id: page.id } });
  /**
   * Polls until the block reaches one of `statuses` (or fails); the milliseconds since `from`.
   * Every `everyMs`: 20 ms where the latency itself is measured, 250 ms while the engine works, so
   * the polling does not take the recogniser's CPU.
   */
  const until = async (id: string, statuses: string[], from: number, everyMs = 250): Promise<{ ms: number; block: any }> => {
    for (;;) {
      const block = await api('GET', `/v1/blocks/${id}`);
      const status = block.meeting_notes.status as string;
      if (statuses.includes(status)) return { ms: performance.now() - from, block };
      if (status === 'transcription_failed') throw new Error(`meeting note ${id} failed (see GET /admin/v1/jobs)`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  };
  const transcriptText = async (block: any): Promise<string> => {
    const children = await api('GET', `/v1/blocks/${block.meeting_notes.children.transcript_block_id}/children?page_size=100`);
    return children.results.map((b: any) => b.paragraph.rich_text.map((t: any) => t.plain_text).join('')).join(' ');
  };
  return { upload, create, until, transcriptText };
}

/**
 * `npm run bench -- meeting-notes`: a five-minute espeak-ng recording through Folio with the
 * local engine, from create to `transcription_in_progress` and to `notes_ready`, beside the same
 * decode and transcription run directly in this process (the baseline: what the engine alone
 * costs, measured in the same run); then ten one-minute recordings queued at once, with one
 * worker and with two, for jobs per minute. Word error rate of the transcript beside.
 */
export const suite: Suite = {
  name: 'meeting-notes',
  description: 'meeting-notes processing with the local engine: latency to in-progress, end-to-end real-time factor, throughput with 10 queued',
  async run(options) {
    if (options.build) await buildProject();
    const dir = tempDir('folio-bench-meeting-');
    const long = path.join(dir.path, 'long.wav');
    const raw = path.join(dir.path, 'raw.wav');
    let spoken = '';
    while (spoken.split(/\s+/).length < 5.5 * 150) spoken += `${MEETING_SCRIPT} `;
    await synthesizeSpeech(spoken, raw);
    await run(ffmpegPath(), ['-v', 'error', '-y', '-i', raw, '-t', String(FIVE_MINUTES), long]);
    const short = path.join(dir.path, 'short.wav');
    await synthesizeSpeech(MEETING_SCRIPT, short);
    const longBytes = fs.readFileSync(long);
    const shortBytes = fs.readFileSync(short);
    const seconds = (bytes: Buffer) => (bytes.length - 44) / bytes.readUInt32LE(28);
    // What was actually spoken in the cut five minutes, for the error rate: the words in proportion.
    const spokenWords = spoken.split(/\s+/).filter(Boolean);
    const reference = spokenWords.slice(0, Math.round((spokenWords.length * FIVE_MINUTES) / seconds(fs.readFileSync(raw)))).join(' ');

    // Baseline: the engine alone, in this process, same file, same configuration as the server's.
    const transcriber = createTranscriber(loadConfig({ ...process.env, FOLIO_DATA_DIR: dir.path }).transcription);
    const alone: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const started = performance.now();
      const wav = path.join(dir.path, `alone-${round}.wav`);
      const info = await decodeToWav(long, wav, { maxSeconds: 4 * 3600 });
      await transcriber.transcribe(wav, { language: 'en', durationSeconds: info.durationSeconds ?? FIVE_MINUTES });
      alone.push(performance.now() - started);
      process.stderr.write(`engine alone, round ${round + 1}: ${(alone.at(-1)! / 1000).toFixed(1)} s\n`);
    }

    const endToEnd: number[] = [];
    const toInProgress: number[] = [];
    const wers: number[] = [];
    const throughput: Record<number, number> = {};
    let store = '';
    process.env.FOLIO_JOB_POLL_MS = '1000';
    for (const workers of [1, 2]) {
      process.env.FOLIO_WORKERS = String(workers);
      const folio = await startFolioServer({ profile: options.profile, entry: options.folioEntry });
      store = folio.store;
      try {
        const api = await session(folio);
        if (workers === 1) {
          for (let round = 0; round < options.rounds; round++) {
            const uploadId = await api.upload(longBytes, `meeting-${round}.wav`);
            const started = performance.now();
            const note = await api.create(uploadId);
            toInProgress.push((await api.until(note.id, ['transcription_in_progress', 'summary_in_progress', 'notes_ready'], started, 20)).ms);
            const ready = await api.until(note.id, ['notes_ready'], started);
            endToEnd.push(ready.ms);
            wers.push(wordErrorRate(reference, await api.transcriptText(ready.block)));
            process.stderr.write(
              `folio, round ${round + 1}: in progress after ${toInProgress.at(-1)!.toFixed(0)} ms, notes_ready after ${(ready.ms / 1000).toFixed(1)} s, WER ${(wers.at(-1)! * 100).toFixed(0)}%\n`,
            );
          }
        }
        const uploads = [];
        for (let i = 0; i < QUEUED; i++) uploads.push(await api.upload(shortBytes, `queued-${i}.wav`));
        const started = performance.now();
        const notes = [];
        for (const id of uploads) notes.push(await api.create(id));
        for (const note of notes) await api.until(note.id, ['notes_ready'], started);
        const minutes = (performance.now() - started) / 60_000;
        throughput[workers] = QUEUED / minutes;
        process.stderr.write(`${QUEUED} queued, ${workers} worker(s): ${throughput[workers].toFixed(1)} jobs/min\n`);
      } finally {
        await folio.stop();
      }
    }
    dir.remove();

    const realTime = median(endToEnd) / 1000 / FIVE_MINUTES;
    const baseline = median(alone) / 1000 / FIVE_MINUTES;
    const best = Object.entries(throughput).sort((a, b) => b[1] - a[1])[0];
    const perRun = (samples: number[]) => samples.map((ms) => ({ requestsPerSecond: 1000 / ms, p50: ms, p99: ms, requests: 1 }));
    const target = (name: string, samples: number[]) => ({
      name,
      runs: perRun(samples),
      medianRequestsPerSecond: median(perRun(samples).map((r) => r.requestsPerSecond)),
      medianP50: median(samples),
      medianP99: median(samples),
    });
    return {
      store,
      comparison: {
        targets: [
          target('folio: create → notes_ready (5 min)', endToEnd),
          target('engine alone: decode + transcribe (5 min)', alone),
          target('folio: create → transcription_in_progress', toInProgress),
        ],
        failures: [],
        options,
      },
      verdict:
        `end to end ${realTime.toFixed(2)}× real time (target ≤ 0.5: ${realTime <= 0.5 ? 'met' : 'NOT met'}; the engine alone ${baseline.toFixed(2)}×, Folio/engine ${(realTime / baseline).toFixed(2)}), ` +
        `create → in progress ${median(toInProgress).toFixed(0)} ms (target ≤ 200: ${median(toInProgress) <= 200 ? 'met' : 'NOT met'}), ` +
        `${best[1].toFixed(1)} jobs/min with ${best[0]} worker(s) (${Object.entries(throughput)
          .map(([w, n]) => `${w}: ${n.toFixed(1)}`)
          .join(', ')})`,
      notes: [
        'p50/p99 are the milliseconds of one run (one per round); "requests/s" is runs per second.',
        `Recording: espeak-ng reading the meeting script (test/processing/speech.ts) over and over, cut at ${FIVE_MINUTES} s, 16-bit wav; queued: ${QUEUED} recordings of ${seconds(shortBytes).toFixed(0)} s.`,
        `Word error rate of the local engine (PocketSphinx, en-us) on the five-minute recording: median ${(median(wers) * 100).toFixed(0)}%. The whisper and openai engines cannot run here (no model file, no network).`,
        'Engine: FOLIO_TRANSCRIBER=local, FOLIO_SUMMARIZER=local, FOLIO_JOB_POLL_MS=1000 (the in-process bell wakes the worker at once).',
      ],
    };
  },
};

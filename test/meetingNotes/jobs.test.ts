/**
 * Issue 14, durable processing: failures retried with backoff and then ended, engines that cannot
 * run, recordings over the length limit, a worker killed mid-transcription, and two workers on one
 * PostgreSQL sharing twenty jobs, each done exactly once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { STORE, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { startChildServer, startChildWorker, type ChildServer } from '../platform/childServer.js';
import { synthesizeSpeech, MEETING_SCRIPT } from '../processing/speech.js';
import { childrenOf, createdNote, uploadRecording, waitForStatus } from './helpers.js';

type Json = Record<string, any>;

const SHORT = 'We decided to ship on Monday. Alice will write the notes.';
let speechDir: string;
const speech: Record<string, Buffer> = {};

before(async () => {
  speechDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-jobs-speech-'));
  for (const [name, text] of [
    ['short', SHORT],
    ['long', MEETING_SCRIPT],
  ] as const) {
    const file = path.join(speechDir, `${name}.wav`);
    await synthesizeSpeech(text, file);
    speech[name] = fs.readFileSync(file);
  }
});

async function noteBody(server: TestServer, fx: Fixture, bytes: Buffer, extra: Json = {}): Promise<Json> {
  const page = await makeSharedPage(server, fx);
  const upload = await uploadRecording(server, fx, bytes, 'speech.wav');
  return { source: { type: 'file_upload', file_upload_id: upload }, parent: { type: 'page_id', page_id: page.id }, ...extra };
}

async function noteFrom(server: TestServer, fx: Fixture, bytes: Buffer, extra: Json = {}): Promise<Json> {
  return createdNote(server, fx, await noteBody(server, fx, bytes, extra));
}

async function jobOf(server: TestServer, blockId: string): Promise<Json> {
  const list = await admin(server, 'GET', `/jobs?subject_id=${blockId}`);
  assert.equal(list.results.length, 1, JSON.stringify(list));
  return list.results[0];
}

/** An OpenAI-compatible transcription service that fails the first `failures` calls with 503. */
async function flakyTranscriptionService(failures: number): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      if (calls <= failures) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'overloaded' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          text: 'we decided to ship on monday alice will write the notes',
          language: 'english',
          segments: [{ start: 0, end: 3, text: 'We decided to ship on Monday. Alice will write the notes.' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A `folio serve` process for a describe, with a workspace; `restart` starts another on the same port and store. */
function useChildServer(env: Record<string, string>) {
  const state = {} as { child: ChildServer; server: TestServer; fx: Fixture };
  before(async () => {
    state.child = await startChildServer({ env });
    state.server = { url: state.child.url, adminToken: state.child.adminToken, dataDir: state.child.dataDir } as TestServer;
    state.fx = await makeWorkspace(state.server);
  });
  after(async () => {
    state.child.process.kill('SIGTERM');
    await state.child.exited;
  });
  const restart = async (extra: Record<string, string> = {}) => {
    // Same address and admin token, so state.server stays good.
    const { port, dataDir, adminToken } = state.child;
    state.child = await startChildServer({ port, dataDir, env: { ...env, FOLIO_ADMIN_TOKEN: adminToken, ...extra } });
  };
  return { state, restart };
}

describe('meeting notes jobs: retries', () => {
  const services: Array<Awaited<ReturnType<typeof flakyTranscriptionService>>> = [];
  // Filled in before the server starts (this hook runs before useServer's).
  const env: Record<string, string> = { FOLIO_TRANSCRIBER: 'openai', FOLIO_JOB_RETRY_MS: '100', FOLIO_JOB_POLL_MS: '50' };
  before(async () => {
    services.push(await flakyTranscriptionService(1));
    env.FOLIO_OPENAI_BASE_URL = services[0].url;
  });
  after(() => Promise.all(services.map((s) => s.close())));
  const { server, fx } = useServer({ env });

  test('a failed attempt is retried after a backoff and the note still ends notes_ready', { timeout: 60_000 }, async () => {
    const note = await noteFrom(server, fx, speech.short);
    const { block } = await waitForStatus(server, fx, note.id);
    assert.equal(block.meeting_notes.status, 'notes_ready');
    const job = await jobOf(server, note.id);
    assert.equal(job.state, 'done');
    assert.equal(job.attempts, 2);
    assert.match(job.last_error, /503|overloaded/);
    assert.equal(services[0].calls(), 2);
  });
});

describe('meeting notes jobs: failures that end the note', () => {
  const env: Record<string, string> = { FOLIO_TRANSCRIBER: 'openai', FOLIO_JOB_RETRY_MS: '50', FOLIO_JOB_POLL_MS: '50' };
  let service: Awaited<ReturnType<typeof flakyTranscriptionService>>;
  before(async () => {
    service = await flakyTranscriptionService(1000);
    env.FOLIO_OPENAI_BASE_URL = service.url;
  });
  after(() => service.close());
  const { server, fx } = useServer({ env });

  test('every attempt failing: three attempts, then transcription_failed with the reason kept', { timeout: 60_000 }, async () => {
    const note = await noteFrom(server, fx, speech.short);
    const { block, seen } = await waitForStatus(server, fx, note.id);
    assert.equal(block.meeting_notes.status, 'transcription_failed', seen.join(' → '));
    const job = await jobOf(server, note.id);
    assert.equal(job.state, 'failed');
    assert.equal(job.attempts, 3);
    assert.match(job.last_error, /503|overloaded/);
    assert.equal(service.calls(), 3);
  });
});

describe('meeting notes jobs: no usable engine, too long', () => {
  const { server, fx } = useServer({ env: { FOLIO_TRANSCRIBER: 'whisper', FOLIO_MEETING_NOTES_MAX_SECONDS: '3', FOLIO_JOB_POLL_MS: '50' } });

  test('whisper without a model: creation succeeds, the note ends transcription_failed, /readyz says why', { timeout: 60_000 }, async () => {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as Json;
    assert.equal(ready.status, 'ready');
    assert.equal(ready.meeting_notes.transcriber.engine, 'whisper');
    assert.equal(ready.meeting_notes.transcriber.ready, false);
    assert.match(ready.meeting_notes.transcriber.reason, /FOLIO_WHISPER_MODEL/);
    const note = await noteFrom(server, fx, speech.short);
    const { block } = await waitForStatus(server, fx, note.id);
    assert.equal(block.meeting_notes.status, 'transcription_failed');
    const job = await jobOf(server, note.id);
    assert.equal(job.attempts, 1, 'an engine that cannot run is not retried');
    assert.match(job.last_error, /FOLIO_WHISPER_MODEL/);
    const processing = await admin(server, 'GET', '/processing');
    assert.equal(processing.transcriber.ready, false);
  });
});

describe('meeting notes jobs: the local engine missing', () => {
  const { server, fx } = useServer({ env: { FOLIO_POCKETSPHINX: '/nonexistent/pocketsphinx_continuous', FOLIO_JOB_POLL_MS: '50' } });

  test('the server starts, /readyz explains what to install, notes end transcription_failed', { timeout: 60_000 }, async () => {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as Json;
    assert.equal(ready.status, 'ready');
    assert.deepEqual(Object.keys(ready.meeting_notes.transcriber).sort(), ['engine', 'ready', 'reason']);
    assert.equal(ready.meeting_notes.transcriber.ready, false);
    assert.match(ready.meeting_notes.transcriber.reason, /\/nonexistent\/pocketsphinx_continuous/);
    const note = await noteFrom(server, fx, speech.short);
    assert.equal((await waitForStatus(server, fx, note.id)).block.meeting_notes.status, 'transcription_failed');
    assert.match((await jobOf(server, note.id)).last_error, /pocketsphinx/);
  });
});

describe('meeting notes jobs: length limit', () => {
  const { server, fx } = useServer({ env: { FOLIO_MEETING_NOTES_MAX_SECONDS: '2', FOLIO_JOB_POLL_MS: '50' } });

  test('a recording over FOLIO_MEETING_NOTES_MAX_SECONDS ends transcription_failed, naming both lengths', { timeout: 60_000 }, async () => {
    const note = await noteFrom(server, fx, speech.short);
    const { block } = await waitForStatus(server, fx, note.id);
    assert.equal(block.meeting_notes.status, 'transcription_failed');
    const job = await jobOf(server, note.id);
    assert.equal(job.attempts, 1);
    assert.match(job.last_error, /\d/);
    process.stdout.write(`# too long: ${job.last_error}\n`);
  });

  test('the local engine and a language it cannot transcribe: refused at creation, saying so', async () => {
    const answer = await call<Json>(server.url, 'POST', '/v1/blocks/meeting_notes', {
      token: fx.token,
      body: await noteBody(server, fx, speech.short, { language: 'fr' }),
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 'validation_error');
    assert.match(answer.body.message, /body\.language/);
    assert.match(answer.body.message, /English only; to transcribe French/);
  });
});

describe('meeting notes jobs: a worker killed mid-transcription', () => {
  const { state, restart } = useChildServer({ FOLIO_JOB_LEASE_SECONDS: '2', FOLIO_JOB_POLL_MS: '100', FOLIO_LOG_LEVEL: 'info' });

  test('SIGKILL while transcribing; after a restart the note reaches notes_ready, processed once', { timeout: 240_000 }, async () => {
    const { server, fx } = state;
    const note = await noteFrom(server, fx, speech.long);
    await waitForStatus(server, fx, note.id, ['transcription_in_progress'], 60_000);
    // Past the decode and the charge, inside the recogniser.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.equal((await waitForStatus(server, fx, note.id, ['transcription_in_progress'])).block.meeting_notes.status, 'transcription_in_progress');
    state.child.process.kill('SIGKILL');
    assert.equal(await state.child.exited, 'SIGKILL');

    await restart();
    const { block } = await waitForStatus(server, fx, note.id, ['notes_ready', 'transcription_failed'], 200_000);
    assert.equal(block.meeting_notes.status, 'notes_ready', state.child.stderr());
    const job = await jobOf(server, note.id);
    assert.equal(job.state, 'done');
    assert.equal(job.attempts, 2, 'the killed attempt, then the one that finished');
    const under = await childrenOf(server, fx, note.id);
    assert.equal(under.length, 3, 'one transcript, one summary, one notes block: nothing written twice');
    const connection = await admin(server, 'GET', `/connections/${fx.connection.id}`);
    const seconds = (speech.long.length - 44) / speech.long.readUInt32LE(28);
    assert.equal(connection.ai_credits_used, Math.ceil(seconds / 60), `a ${seconds.toFixed(0)}-second recording's credits, charged once`);
  });
});

describe('meeting notes jobs: a graceful shutdown mid-transcription', () => {
  const { state, restart } = useChildServer({ FOLIO_JOB_POLL_MS: '100' });

  test('SIGTERM hands the running job back at once, its attempt refunded; the next start finishes it', { timeout: 240_000 }, async () => {
    const { server, fx } = state;
    const note = await noteFrom(server, fx, speech.long);
    await waitForStatus(server, fx, note.id, ['transcription_in_progress'], 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    state.child.process.kill('SIGTERM');
    assert.equal(await state.child.exited, 0);
    await restart({ FOLIO_WORKERS: '0' });
    const handedBack = await jobOf(server, note.id);
    assert.equal(handedBack.state, 'queued', 'not left running until a lease runs out');
    assert.equal(handedBack.attempts, 0);
    state.child.process.kill('SIGTERM');
    await state.child.exited;
    await restart();
    assert.equal((await waitForStatus(server, fx, note.id, undefined, 200_000)).block.meeting_notes.status, 'notes_ready');
    assert.equal((await jobOf(server, note.id)).attempts, 1);
    assert.equal((await childrenOf(server, fx, note.id)).length, 3);
  });
});

describe('meeting notes jobs: two workers on one PostgreSQL', { skip: STORE !== 'postgres' && 'PostgreSQL only (several processes on one store)' }, () => {
  const { server, fx } = useServer({ env: { FOLIO_WORKERS: '0' } });

  test('20 jobs, two `folio worker` processes: every one done exactly once', { timeout: 300_000 }, async () => {
    const notes: Json[] = [];
    for (let i = 0; i < 20; i++) notes.push(await noteFrom(server, fx, speech.short, { options: { kickoff_summary: i % 2 === 0 } }));
    const workers = await Promise.all([0, 1].map(() => startChildWorker({ dataDir: server.dataDir, env: { FOLIO_JOB_POLL_MS: '50' } })));
    try {
      for (const note of notes) assert.equal((await waitForStatus(server, fx, note.id, undefined, 240_000)).block.meeting_notes.status, 'notes_ready');
    } finally {
      for (const worker of workers) worker.process.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.exited));
    }
    const ran = new Map<string, number>();
    for (const [i, note] of notes.entries()) {
      const job = await jobOf(server, note.id);
      assert.equal(job.state, 'done');
      assert.equal(job.attempts, 1, `job ${job.id} claimed once`);
      ran.set(job.worker_id, (ran.get(job.worker_id) ?? 0) + 1);
      const under = await childrenOf(server, fx, note.id);
      assert.equal(under.length, i % 2 === 0 ? 3 : 1, `note ${i}: its results written once`);
    }
    process.stdout.write(`# jobs done per worker: ${[...ran.values()].join(', ')}\n`);
  });
});

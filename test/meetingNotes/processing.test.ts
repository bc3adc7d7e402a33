/**
 * Issue 14, end to end on the store the suite runs on: speech synthesised here (espeak-ng) as wav,
 * m4a (audio/mp4) and an mp4 video → file upload → meeting note → the worker decodes, transcribes
 * (the local engine: PocketSphinx) and summarises → GET /v1/blocks/{id} shows notes_ready, and the
 * transcript, summary and notes blocks hold what was said.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { ok } from '../content/helpers.js';
import { ffmpegPath } from '../../src/processing/media/ffmpegPath.js';
import { synthesizeSpeech, wordRecall } from '../processing/speech.js';
import { childrenOf, createdNote, textOf, uploadRecording, waitForStatus } from './helpers.js';

type Json = Record<string, any>;
const run = promisify(execFile);

/** About 20 seconds of espeak-ng speech: long enough to measure, short enough to run five times per store. */
const SCRIPT =
  'Good morning everyone. Let us review the release plan for the mobile application. ' +
  'The testing team found three problems in the payment screen. ' +
  'We decided to delay the launch by one week. ' +
  'Alice will fix the payment screen by Friday. Bob will update the customer documentation.';

/**
 * "Most of the spoken words": the share of the script's words found in the transcript. Measured
 * here (2026-11-23, 2 cores, PocketSphinx en-us): 0.61–0.65 over wav, m4a, mp4 and the block
 * source, the same on every run (espeak-ng and PocketSphinx are deterministic). A broken pipeline
 * (silence, a wrong sample rate, a cut recording) gives near 0.
 */
const RECALL_FLOOR = 0.5;

describe('meeting notes: processing end to end', () => {
  const { server, fx } = useServer({ env: { FOLIO_WORKERS: '1', FOLIO_JOB_POLL_MS: '100' } });
  const media: Record<string, string> = {};

  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-meeting-media-'));
    media.wav = path.join(dir, 'meeting.wav');
    await synthesizeSpeech(SCRIPT, media.wav);
    media.m4a = path.join(dir, 'meeting.m4a');
    await run(ffmpegPath(), ['-v', 'error', '-y', '-i', media.wav, '-c:a', 'aac', '-b:a', '64k', media.m4a]);
    media.mp4 = path.join(dir, 'meeting.mp4');
    await run(ffmpegPath(), [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=black:s=160x120:r=5', '-i', media.wav],
      ...['-shortest', '-c:v', 'mpeg4', '-c:a', 'aac', '-metadata', 'creation_time=2026-11-20T10:00:00Z', media.mp4],
    ]);
  });

  /** A finished note's three parts, each checked for what it must hold. */
  async function checkReady(note: Json, options: { summary: boolean }) {
    const { block, seen } = await waitForStatus(server, fx, note.id);
    if (block.meeting_notes.status !== 'notes_ready') {
      const jobs = await admin(server, 'GET', `/jobs?subject_id=${note.id}`);
      assert.fail(`statuses seen: ${seen.join(' → ')}; the job: ${JSON.stringify(jobs.results)}`);
    }
    const order = ['transcription_not_started', 'transcription_in_progress', 'summary_in_progress', 'notes_ready'];
    const positions = seen.map((s) => order.indexOf(s));
    assert.ok(
      positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1])),
      `statuses move forward only: ${seen.join(' → ')}`,
    );
    if (!options.summary) assert.ok(!seen.includes('summary_in_progress'), seen.join(' → '));

    const ids = block.meeting_notes.children;
    const transcript = await childrenOf(server, fx, ids.transcript_block_id);
    const said = transcript.map(textOf).join(' ');
    assert.match(said, /^\[00:0\d\] /, 'paragraphs start with their time');
    const recall = wordRecall(SCRIPT, said);
    process.stdout.write(`# ${note.id}: word recall ${recall.toFixed(2)}\n`);
    assert.ok(recall >= RECALL_FLOOR, `recall ${recall.toFixed(2)} < ${RECALL_FLOOR}: ${said}`);
    assert.equal(block.has_children, true);

    if (options.summary) {
      const summary = await childrenOf(server, fx, ids.summary_block_id);
      assert.ok(summary.length > 0, 'the summary block has content');
      const notes = await childrenOf(server, fx, ids.notes_block_id);
      assert.deepEqual(notes.filter((b) => b.type === 'heading_3').map(textOf), ['Decisions', 'Action items']);
      assert.ok(notes.some((b) => b.type === 'to_do' || b.type === 'paragraph'));
      assert.notEqual(block.meeting_notes.title.map((t: Json) => t.plain_text).join(''), 'Provisional title', 'the title was replaced');
      assert.ok(block.meeting_notes.title.length > 0);
      // The meeting-notes query reads the title processing wrote, no longer the provisional one.
      const byTitle = async (title: string) => {
        const filter = { property: 'title', filter: { operator: 'string_is', value: { type: 'exact', value: title } } };
        return (await ok(server, fx, 'POST', '/v1/blocks/meeting_notes/query', { filter })).results.map((b: Json) => b.id);
      };
      assert.ok((await byTitle(block.meeting_notes.title.map((t: Json) => t.plain_text).join(''))).includes(note.id));
      assert.ok(!(await byTitle('Provisional title')).includes(note.id));
    } else {
      assert.deepEqual(Object.keys(ids), ['transcript_block_id']);
      assert.equal(block.meeting_notes.title[0].plain_text, 'Provisional title');
    }
    const under = await childrenOf(server, fx, note.id);
    assert.deepEqual(under.map((b) => b.id).sort(), Object.values(ids as Record<string, string>).sort(), 'the note holds exactly its result blocks');
    return block;
  }

  for (const [kind, filename, contentType] of [
    ['wav', 'meeting.wav', 'audio/wav'],
    ['m4a', 'meeting.m4a', 'audio/mp4'],
    ['mp4', 'meeting.mp4', 'video/mp4'],
  ] as const) {
    test(`${kind}: upload → meeting note → notes_ready with transcript, summary and notes`, { timeout: 180_000 }, async () => {
      const page = await makeSharedPage(server, fx);
      const upload = await uploadRecording(server, fx, fs.readFileSync(media[kind]), filename, contentType);
      const note = await createdNote(server, fx, {
        title: 'Provisional title',
        language: 'en',
        source: { type: 'file_upload', file_upload_id: upload },
        parent: { type: 'page_id', page_id: page.id },
      });
      const block = await checkReady(note, { summary: true });
      if (kind === 'mp4') {
        // Recording times come from the container's creation_time and the media's length.
        assert.equal(block.meeting_notes.recording.start_time, '2026-11-20T10:00:00.000Z');
        const seconds = (Date.parse(block.meeting_notes.recording.end_time) - Date.parse(block.meeting_notes.recording.start_time)) / 1000;
        assert.ok(seconds > 10 && seconds < 40, `recording length ${seconds} s`);
      }
    });
  }

  test('an existing audio block as the source', { timeout: 180_000 }, async () => {
    const page = await makeSharedPage(server, fx);
    const upload = await uploadRecording(server, fx, fs.readFileSync(media.wav), 'block.wav');
    const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
      children: [{ audio: { type: 'file_upload', file_upload: { id: upload } } }],
    });
    const note = await createdNote(server, fx, { title: 'Provisional title', source: { type: 'block', block_id: appended.results[0].id } });
    await checkReady(note, { summary: true });
  });

  test('kickoff_summary: false transcribes and makes no summary; the final status is notes_ready', { timeout: 180_000 }, async () => {
    const page = await makeSharedPage(server, fx);
    const upload = await uploadRecording(server, fx, fs.readFileSync(media.wav), 'plain.wav');
    const note = await createdNote(server, fx, {
      title: 'Provisional title',
      options: { kickoff_summary: false },
      source: { type: 'file_upload', file_upload_id: upload },
      parent: { type: 'page_id', page_id: page.id },
    });
    await checkReady(note, { summary: false });
  });

  test('paused, a worker leaves new notes alone; resumed, it processes them', { timeout: 120_000 }, async () => {
    await admin(server, 'POST', '/processing/pause');
    let note: Json;
    try {
      const page = await makeSharedPage(server, fx);
      const upload = await uploadRecording(server, fx, fs.readFileSync(media.wav), 'paused.wav');
      note = await createdNote(server, fx, { source: { type: 'file_upload', file_upload_id: upload }, parent: { type: 'page_id', page_id: page.id } });
      assert.equal(note.meeting_notes.status, 'transcription_paused');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal((await ok(server, fx, 'GET', `/v1/blocks/${note.id}`)).meeting_notes.status, 'transcription_paused');
    } finally {
      await admin(server, 'POST', '/processing/resume');
    }
    await checkReady(note, { summary: true });
  });

  test('credits: each started minute of media costs one; the workspace and the connection are charged once', async () => {
    const workspace = await admin(server, 'GET', `/workspaces/${fx.workspaceId}`);
    assert.equal(workspace.ai_credits, null, 'no limit set: nothing is counted down');
    const connection = await admin(server, 'GET', `/connections/${fx.connection.id}`);
    // Six recordings of about 20 s above, one credit each.
    assert.equal(connection.ai_credits_used, 6);
  });

  test('/readyz names the engines and says they are ready', async () => {
    const res = await fetch(`${server.url}/readyz`);
    const body = (await res.json()) as Json;
    assert.deepEqual(body.meeting_notes, { transcriber: { engine: 'local', ready: true }, summarizer: { engine: 'local', ready: true } });
  });
});

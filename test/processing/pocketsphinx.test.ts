/**
 * The local engine (pocketsphinx_continuous from Debian's pocketsphinx and pocketsphinx-en-us) on
 * synthesised English: what it hears, how its words become segments, how it is refused or stopped.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeToWav } from '../../src/processing/media/decodeAudio.js';
import { parseWords, PocketsphinxTranscriber } from '../../src/processing/transcription/pocketsphinxTranscriber.js';
import { TranscriptionUnavailable, type Transcript } from '../../src/processing/transcription/transcriber.js';
import { MEETING_SCRIPT, synthesizeSpeech, wordRecall } from './speech.js';

/** About 18 s as espeak-ng speaks it. */
const PARAGRAPH =
  'Hello everyone, thanks for coming. Today we need to talk about the support queue. Last month we answered most tickets within a day, ' +
  'but the weekend backlog is still growing. We decided to add a second person to the weekend rota. ' +
  'Maria will draft the new schedule, and Tom will update the help center before Monday.';

/**
 * Measured on this machine (espeak-ng 1.51, pocketsphinx 0.8+5prealpha-15, 2026-11-23): recall
 * 0.768 on PARAGRAPH in each of 5 runs (both programs are deterministic), 0.642 and 0.654 on two
 * other paragraphs of the same kind, 0.72–0.75 on MEETING_SCRIPT (one process or two halves). The
 * floor sits well below the worst of these, so it catches a broken pipeline (silence, a wrong
 * sample rate, lost chunks: recall near 0), not the recogniser's ordinary misses.
 */
const RECALL_FLOOR = 0.5;

let dir: string;
const local = new PocketsphinxTranscriber({ binaryPath: null, searchPath: process.env.PATH ?? '', parallelism: 2 });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-pocketsphinx-test-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Speech → upload-like wav → the decoder → the engine, as a job runs them. */
async function transcribe(text: string, name: string, transcriber = local): Promise<{ transcript: Transcript; duration: number; seconds: number }> {
  const spoken = join(dir, `${name}.wav`);
  await synthesizeSpeech(text, spoken);
  const wav = join(dir, `${name}.16k.wav`);
  const { durationSeconds } = await decodeToWav(spoken, wav, { maxSeconds: 600 });
  const started = performance.now();
  const transcript = await transcriber.transcribe(wav, { language: 'en', durationSeconds: durationSeconds!, signal: AbortSignal.timeout(120_000) });
  return { transcript, duration: durationSeconds!, seconds: (performance.now() - started) / 1000 };
}

function checkSegments(transcript: Transcript, duration: number): void {
  assert.ok(transcript.segments.length > 0);
  let previousEnd = 0;
  for (const segment of transcript.segments) {
    assert.ok(segment.start < segment.end, JSON.stringify(segment));
    assert.ok(segment.start >= previousEnd - 1e-9, `segments in order and apart: ${JSON.stringify(segment)} after ${previousEnd}`);
    assert.ok(segment.end <= duration, `${segment.end} within ${duration}`);
    assert.ok(segment.end - segment.start <= 30, `at most 30 s: ${JSON.stringify(segment)}`);
    assert.equal(segment.text, segment.text.trim());
    assert.ok(segment.text.length > 0);
    assert.doesNotMatch(segment.text, /<\/?s>|<sil>|\[[A-Z]+\]|\(\d+\)|\+\+/, 'no filler tokens or pronunciation markers');
    previousEnd = segment.end;
  }
}

describe('the local engine (pocketsphinx)', () => {
  test('is ready where Debian packages are installed', async () => {
    assert.deepEqual(await local.readiness(), { ready: true });
  });

  test('hears an English paragraph: recall above the measured floor, ordered segments inside the recording', async () => {
    const { transcript, duration, seconds } = await transcribe(PARAGRAPH, 'paragraph');
    const heard = transcript.segments.map((s) => s.text).join(' ');
    const recall = wordRecall(PARAGRAPH, heard);
    process.stdout.write(`# paragraph: ${duration.toFixed(1)} s, transcribed in ${seconds.toFixed(1)} s, word recall ${recall.toFixed(3)}\n`);
    assert.ok(recall >= RECALL_FLOOR, `recall ${recall.toFixed(3)} < ${RECALL_FLOOR}: ${heard}`);
    assert.equal(transcript.engine, 'local');
    assert.equal(transcript.language, 'en');
    checkSegments(transcript, duration);
    assert.ok(transcript.segments.length >= 3, 'sentences become separate segments');
  });

  test('a minute split in two at a pause hears as much as one process, in order', async () => {
    const split = await transcribe(MEETING_SCRIPT, 'meeting');
    const whole = await transcribe(
      MEETING_SCRIPT,
      'meeting-whole',
      new PocketsphinxTranscriber({ binaryPath: null, searchPath: process.env.PATH ?? '', parallelism: 1 }),
    );
    const recall = (t: Transcript) => wordRecall(MEETING_SCRIPT, t.segments.map((s) => s.text).join(' '));
    process.stdout.write(
      `# meeting script: ${split.duration.toFixed(1)} s; two processes ${split.seconds.toFixed(1)} s (recall ${recall(split.transcript).toFixed(3)}), ` +
        `one ${whole.seconds.toFixed(1)} s (recall ${recall(whole.transcript).toFixed(3)})\n`,
    );
    checkSegments(split.transcript, split.duration);
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.startsWith('pocketsphinx-')),
      [],
      'the copies of the halves are gone',
    );
    assert.ok(recall(split.transcript) >= RECALL_FLOOR);
    assert.ok(Math.abs(recall(split.transcript) - recall(whole.transcript)) <= 0.05, 'the cut loses no more than a word or two');
  });

  test('English only: other languages are refused with a sentence that says what to do', () => {
    assert.equal(local.refuseLanguage('en'), null);
    assert.equal(local.refuseLanguage('auto'), null);
    assert.equal(
      local.refuseLanguage('fr'),
      'the local engine transcribes English only; to transcribe French, configure the whisper or openai engine (FOLIO_TRANSCRIBER)',
    );
    assert.match(local.refuseLanguage('zh-TW')!, /to transcribe Chinese \(Taiwan\)/);
  });

  test('transcribing a refused language throws TranscriptionUnavailable', async () => {
    await assert.rejects(local.transcribe(join(dir, 'none.wav'), { language: 'de', durationSeconds: 1 }), TranscriptionUnavailable);
  });

  test('not ready, with the packages to install, when the binary is missing', async () => {
    const saved = process.env.PATH;
    process.env.PATH = dir;
    try {
      const readiness = await new PocketsphinxTranscriber({ binaryPath: null, searchPath: process.env.PATH ?? '', parallelism: 1 }).readiness();
      assert.deepEqual(readiness, {
        ready: false,
        reason:
          'pocketsphinx_continuous was not found on PATH; install it with `apt-get install pocketsphinx pocketsphinx-en-us`, or configure another engine (FOLIO_TRANSCRIBER)',
      });
    } finally {
      process.env.PATH = saved;
    }
    const configured = new PocketsphinxTranscriber({ binaryPath: '/opt/nowhere/pocketsphinx_continuous', searchPath: process.env.PATH ?? '', parallelism: 1 });
    assert.deepEqual(await configured.readiness(), {
      ready: false,
      reason: 'the pocketsphinx binary FOLIO_POCKETSPHINX=/opt/nowhere/pocketsphinx_continuous does not exist or is not executable',
    });
    await assert.rejects(configured.transcribe(join(dir, 'none.wav'), { language: 'en', durationSeconds: 1 }), TranscriptionUnavailable);
  });

  test('an abort stops the recognisers and rejects with its reason', async () => {
    const spoken = join(dir, 'abort.wav');
    await synthesizeSpeech(MEETING_SCRIPT, spoken);
    const wav = join(dir, 'abort.16k.wav');
    await decodeToWav(spoken, wav, { maxSeconds: 600 });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('job cancelled')), 300);
    await assert.rejects(local.transcribe(wav, { language: 'en', durationSeconds: 60, signal: controller.signal }), /job cancelled/);
    assert.ok(performance.now() - started < 3000, 'stopped at once, not after recognising');
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.startsWith('pocketsphinx-')),
      [],
      'the copies of the halves are gone',
    );
  });
});

describe('parseWords', () => {
  test('keeps words with their times, drops fillers and pronunciation variants, shifts by the chunk start', () => {
    const output = [
      'we decided to move',
      '<s> 0.000 0.020 0.998201',
      'we 0.030 0.200 0.997503',
      '<sil> 0.210 0.500 0.998701',
      'decided 0.510 0.900 0.998701',
      '[NOISE] 0.910 1.000 0.5',
      '++UH++ 1.010 1.100 0.5',
      'to(3) 1.110 1.200 0.905098',
      'move 1.210 1.500 0.016874',
      '</s> 1.510 1.600 1.000000',
      '',
    ].join('\n');
    assert.deepEqual(parseWords(output, 10), [
      { word: 'we', start: 10.03, end: 10.2 },
      { word: 'decided', start: 10.51, end: 10.9 },
      { word: 'to', start: 11.11, end: 11.2 },
      { word: 'move', start: 11.21, end: 11.5 },
    ]);
  });
});

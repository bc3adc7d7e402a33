/**
 * The whisper engine. No real model can be had on this machine, so: every way the model setting
 * can be wrong is reported by readiness() with the path and the problem; a model that passes the
 * cheap checks but does not load (or kills whisper.cpp) ends the job cleanly; and a zero-weight
 * model written here (tinyWhisperModel.ts) runs the real path, which says nothing of accuracy.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechWavHeader } from '../../src/processing/media/wavFile.js';
import { whisperLanguage } from '../../src/processing/transcription/languageCodes.js';
import { MEETING_LANGUAGES, TranscriptionUnavailable } from '../../src/processing/transcription/transcriber.js';
import { WhisperTranscriber } from '../../src/processing/transcription/whisperTranscriber.js';
import { writeTinyWhisperModel } from './tinyWhisperModel.js';

let dir: string;
let wav: string;
const GGML_MAGIC = Buffer.from([0x6c, 0x6d, 0x67, 0x67]);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-whisper-test-'));
  wav = join(dir, 'silence-5s.wav');
  // whisper.cpp skips recordings under a second.
  await writeFile(wav, Buffer.concat([speechWavHeader(5 * 32000), Buffer.alloc(5 * 32000)]));
});
after(() => rm(dir, { recursive: true, force: true }));

const whisper = (modelPath: string | null) => new WhisperTranscriber({ modelPath, threads: 1 });

async function notReady(modelPath: string | null): Promise<string> {
  const readiness = await whisper(modelPath).readiness();
  assert.equal(readiness.ready, false);
  return (readiness as { reason: string }).reason;
}

describe('the whisper engine: model checks', () => {
  test('no model configured', async () => {
    assert.equal(await notReady(null), 'no whisper model is configured; set FOLIO_WHISPER_MODEL to a whisper.cpp ggml model file such as ggml-base.bin');
    await assert.rejects(whisper(null).transcribe(wav, { language: 'en', durationSeconds: 5 }), TranscriptionUnavailable);
  });

  test('the model file does not exist', async () => {
    const path = join(dir, 'ggml-base.bin');
    assert.equal(await notReady(path), `the whisper model ${path} does not exist`);
  });

  test('the model path is a directory', async () => {
    const path = join(dir, 'models');
    await mkdir(path);
    assert.equal(await notReady(path), `the whisper model ${path} is not a file`);
  });

  test('the model file is not a ggml model', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'these are not weights');
    assert.equal(await notReady(path), `the whisper model ${path} is not a whisper.cpp ggml model (it does not start with the ggml magic bytes)`);
    const empty = join(dir, 'empty.bin');
    await writeFile(empty, '');
    assert.match(await notReady(empty), /is not a whisper\.cpp ggml model/);
  });

  test('a GGUF file (llama.cpp and newer formats) is named as such', async () => {
    const path = join(dir, 'model.gguf');
    await writeFile(path, Buffer.concat([Buffer.from('GGUF'), randomBytes(64)]));
    assert.equal(await notReady(path), `the whisper model ${path} is a GGUF file; whisper.cpp needs a ggml model (ggml-*.bin)`);
  });

  test('an unreadable model file', { skip: process.getuid?.() === 0 ? 'root reads any file' : false }, async () => {
    const path = join(dir, 'locked.bin');
    await writeFile(path, GGML_MAGIC, { mode: 0o000 });
    assert.equal(await notReady(path), `the whisper model ${path} cannot be read (permission denied)`);
  });
});

describe('the whisper engine: a model that does not load', () => {
  test('refused by whisper.cpp: the job ends, and readiness says why until the file changes', async () => {
    // The ggml magic and then zeros: whisper.cpp reads the header and gives up.
    const path = join(dir, 'ggml-truncated.bin');
    await writeFile(path, Buffer.concat([GGML_MAGIC, Buffer.alloc(4096)]));
    const engine = whisper(path);
    assert.deepEqual(await engine.readiness(), { ready: true }, 'the cheap checks pass');
    await assert.rejects(engine.transcribe(wav, { language: 'en', durationSeconds: 5 }), (error: Error) => {
      assert.ok(error instanceof TranscriptionUnavailable, String(error));
      assert.match(error.message, new RegExp(`^the whisper model ${path} could not be loaded \\(Failed to initialize Whisper model from buffer\\)`));
      return true;
    });
    const after = await engine.readiness();
    assert.equal(after.ready, false);
    assert.match((after as { reason: string }).reason, /could not be loaded/);

    await writeFile(path, Buffer.concat([GGML_MAGIC, Buffer.alloc(8192)]));
    assert.deepEqual(await engine.readiness(), { ready: true }, 'a replaced file is tried again');
  });

  test('one that makes whisper.cpp abort its process: the job ends, the server lives on', async () => {
    // Random bytes after the magic trip a GGML_ASSERT, which aborts the process it runs in.
    const path = join(dir, 'ggml-garbage.bin');
    await writeFile(path, Buffer.concat([GGML_MAGIC, randomBytes(4096)]));
    const engine = whisper(path);
    await assert.rejects(engine.transcribe(wav, { language: 'auto', durationSeconds: 5 }), (error: Error) => {
      assert.ok(error instanceof TranscriptionUnavailable, String(error));
      assert.match(error.message, new RegExp(`^the whisper model ${path} could not be loaded`));
      return true;
    });
    assert.equal((await engine.readiness()).ready, false);
  });

  test('an abort while waiting rejects at once with its reason', async () => {
    const controller = new AbortController();
    controller.abort(new Error('job cancelled'));
    await assert.rejects(whisper(join(dir, 'x.bin')).transcribe(wav, { language: 'en', durationSeconds: 1, signal: controller.signal }), /job cancelled/);
  });
});

describe('the whisper engine: a model that runs', () => {
  let model: string;
  let tone: string;
  before(async () => {
    model = join(dir, 'ggml-tiny-zero.bin');
    await writeTinyWhisperModel(model);
    // A minute of a tone: long enough that whisper.cpp is still at work when the abort comes.
    tone = join(dir, 'tone.wav');
    const samples = Buffer.alloc(60 * 32000);
    for (let i = 0; i < samples.length / 2; i++) samples.writeInt16LE(Math.round(3000 * Math.sin(i / 7)), i * 2);
    await writeFile(tone, Buffer.concat([speechWavHeader(samples.length), samples]));
  });

  // One thread: on this 2-core machine ggml's thread sync makes a model this small 30× slower with two.
  const engine = () => new WhisperTranscriber({ modelPath: model, threads: 1 });

  test('segments come back in seconds, inside the recording, with the hint as the language', async () => {
    const whisper = engine();
    assert.deepEqual(await whisper.readiness(), { ready: true });
    // whisper.cpp says 0.40–10.38 s (its times are centiseconds) on a 5 s recording: cut to the recording.
    assert.deepEqual(await whisper.transcribe(wav, { language: 'en', durationSeconds: 5 }), {
      engine: 'whisper',
      language: 'en',
      segments: [{ start: 0.4, end: 5, text: 'hello' }],
    });
    const chinese = await whisper.transcribe(wav, { language: 'zh-TW', durationSeconds: 5 });
    assert.equal(chinese.language, 'zh-TW');
    const detected = await whisper.transcribe(wav, { language: 'auto', durationSeconds: 5 });
    assert.match(detected.language ?? '', /^[a-z]{2,3}$/, 'auto reports the language whisper.cpp detected');
  });

  test('jobs take turns on the one model', async () => {
    // Only the first run's text is predictable: with every logit equal, whisper.cpp falls back to
    // sampling, whose random state carries over from run to run in the loaded model.
    const whisper = engine();
    const results = await Promise.all([1, 2, 3].map(() => whisper.transcribe(wav, { language: 'en', durationSeconds: 5 })));
    assert.deepEqual(results[0].segments, [{ start: 0.4, end: 5, text: 'hello' }]);
    for (const result of results) {
      assert.equal(result.language, 'en');
      for (const segment of result.segments) assert.ok(segment.start < segment.end && segment.end <= 5, JSON.stringify(segment));
    }
  });

  test('an abort kills whisper.cpp at once; the next job loads the model again', async () => {
    const whisper = engine();
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('job cancelled')), 500);
    await assert.rejects(whisper.transcribe(tone, { language: 'en', durationSeconds: 60, signal: controller.signal }), /job cancelled/);
    assert.ok(performance.now() - started < 3000, `stopped after ${Math.round(performance.now() - started)} ms`);
    const next = await whisper.transcribe(wav, { language: 'en', durationSeconds: 5 });
    assert.equal(next.segments.length, 1);
  });
});

describe('the whisper engine: languages', () => {
  test('every meeting language is accepted; others are refused', () => {
    const engine = whisper(null);
    for (const language of MEETING_LANGUAGES) assert.equal(engine.refuseLanguage(language), null, language);
    assert.match(engine.refuseLanguage('tlh')!, /does not take the language hint "tlh"/);
  });

  test('hints are passed as whisper codes: auto detects, Chinese variants are zh', () => {
    assert.equal(whisperLanguage('auto'), null);
    assert.equal(whisperLanguage('zh-CN'), 'zh');
    assert.equal(whisperLanguage('zh-TW'), 'zh');
    assert.equal(whisperLanguage('no'), 'no');
    assert.equal(whisperLanguage('he'), 'he');
  });
});

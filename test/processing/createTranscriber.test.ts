/** The engine setting picks the engine; creating one loads and contacts nothing. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTranscriber, type TranscriptionSettings } from '../../src/processing/transcription/createTranscriber.js';

const settings: TranscriptionSettings = {
  engine: 'local',
  pocketsphinxPath: null,
  searchPath: process.env.PATH ?? '',
  parallelism: 2,
  whisperModel: null,
  openai: { baseUrl: null, apiKey: null, model: 'whisper-1', timeoutMs: 1000 },
};

test('each engine setting gives that engine, and readiness says what is missing', async () => {
  assert.equal(createTranscriber(settings).name, 'local');
  const whisper = createTranscriber({ ...settings, engine: 'whisper' });
  assert.equal(whisper.name, 'whisper');
  assert.match(((await whisper.readiness()) as { reason: string }).reason, /FOLIO_WHISPER_MODEL/);
  const openai = createTranscriber({ ...settings, engine: 'openai' });
  assert.equal(openai.name, 'openai');
  assert.match(((await openai.readiness()) as { reason: string }).reason, /FOLIO_OPENAI_BASE_URL/);
  assert.deepEqual(await createTranscriber({ ...settings, engine: 'openai', openai: { ...settings.openai, baseUrl: 'http://127.0.0.1:9/v1' } }).readiness(), {
    ready: true,
  });
});

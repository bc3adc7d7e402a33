/**
 * The openai engine against a small local server speaking OpenAI's `POST /v1/audio/transcriptions`:
 * what it sends, how answers become segments, which failures end the job and which are retried.
 */
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechWavHeader } from '../../src/processing/media/wavFile.js';
import { OpenAiTranscriber, type OpenAiTranscriptionSettings } from '../../src/processing/transcription/openaiTranscriber.js';
import { TranscriptionUnavailable } from '../../src/processing/transcription/transcriber.js';

interface Received {
  path: string;
  authorization: string | undefined;
  fields: Record<string, string>;
  file: Buffer;
  fileName: string;
}

let dir: string;
let wav: string;
let server: Server;
let baseUrl: string;
let received: Received[] = [];
/** What the server does with the next request; the test sets it. */
let answer: (request: Received, response: ServerResponse) => void;

async function readForm(request: IncomingMessage): Promise<Received> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': request.headers['content-type'] ?? '' } }).formData();
  const fields: Record<string, string> = {};
  let file = Buffer.alloc(0);
  let fileName = '';
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else {
      file = Buffer.from(await value.arrayBuffer());
      fileName = value.name;
    }
  }
  return { path: request.url ?? '', authorization: request.headers.authorization, fields, file, fileName };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-openai-test-'));
  wav = join(dir, 'recording.wav');
  // 10 s of a quiet tone: what the engine sends is checked byte for byte, what it contains does not matter.
  const samples = Buffer.alloc(10 * 32000);
  for (let i = 0; i < samples.length / 2; i++) samples.writeInt16LE(Math.round(1000 * Math.sin(i / 10)), i * 2);
  await writeFile(wav, Buffer.concat([speechWavHeader(samples.length), samples]));

  server = createServer((request, response) => {
    readForm(request).then(
      (form) => {
        received.push(form);
        if (form.path !== '/v1/audio/transcriptions') return json(response, 404, { error: { message: `no route ${form.path}` } });
        answer(form, response);
      },
      (error: Error) => json(response, 500, { error: { message: `test server: ${error.message}` } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function engine(overrides: Partial<OpenAiTranscriptionSettings> = {}): OpenAiTranscriber {
  received = [];
  return new OpenAiTranscriber({ baseUrl, apiKey: 'sk-test', model: 'whisper-1', timeoutMs: 10_000, ...overrides });
}

describe('the openai engine', () => {
  test('sends the recording with model, language and verbose_json; maps the segments', async () => {
    answer = (_, response) =>
      json(response, 200, {
        task: 'transcribe',
        language: 'chinese',
        duration: 10,
        text: '大家好。我们决定下周发布。',
        segments: [
          { id: 0, start: 0.0, end: 3.2, text: ' 大家好。 ' },
          { id: 1, start: 3.2, end: 3.2, text: '   ' },
          { id: 2, start: 3.5, end: 8.04, text: ' 我们决定下周发布。' },
        ],
      });
    const transcript = await engine().transcribe(wav, { language: 'zh-TW', durationSeconds: 10 });

    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request.authorization, 'Bearer sk-test');
    assert.deepEqual(request.fields, { model: 'whisper-1', language: 'zh', response_format: 'verbose_json', 'timestamp_granularities[]': 'segment' });
    assert.ok(request.file.equals(await readFile(wav)), 'the wav is sent as it is');
    assert.equal(request.fileName, 'recording.wav');

    assert.deepEqual(transcript, {
      engine: 'openai',
      language: 'zh-TW',
      segments: [
        { start: 0, end: 3.2, text: '大家好。' },
        { start: 3.5, end: 8.04, text: '我们决定下周发布。' },
      ],
    });
  });

  test('auto sends no language and reports the detected one; no key, no authorization header', async () => {
    answer = (_, response) => json(response, 200, { language: 'english', text: 'Hello.', segments: [{ start: 0.5, end: 1.5, text: 'Hello.' }] });
    const transcript = await engine({ apiKey: null }).transcribe(wav, { language: 'auto', durationSeconds: 10 });
    assert.equal(received[0].fields.language, undefined);
    assert.equal(received[0].authorization, undefined);
    assert.equal(transcript.language, 'en');
  });

  test('a server that answers only text: one segment over the whole recording', async () => {
    answer = (_, response) => json(response, 200, { text: ' We decided to ship on Monday. ' });
    const transcript = await engine().transcribe(wav, { language: 'en', durationSeconds: 10 });
    assert.deepEqual(transcript.segments, [{ start: 0, end: 10, text: 'We decided to ship on Monday.' }]);
  });

  test('a 400 ends the job with the server’s message', async () => {
    answer = (_, response) => json(response, 400, { error: { message: 'Invalid file format.', type: 'invalid_request_error' } });
    await assert.rejects(engine().transcribe(wav, { language: 'en', durationSeconds: 10 }), (error: Error) => {
      assert.ok(error instanceof TranscriptionUnavailable, String(error));
      assert.equal(error.message, 'the transcription service answered 400: Invalid file format.');
      return true;
    });
  });

  test('a 401 (bad key) ends the job too', async () => {
    answer = (_, response) => json(response, 401, { error: { message: 'Incorrect API key provided.' } });
    await assert.rejects(engine().transcribe(wav, { language: 'en', durationSeconds: 10 }), TranscriptionUnavailable);
  });

  for (const status of [503, 429, 408]) {
    test(`a ${status} is an ordinary error: the job is retried`, async () => {
      answer = (_, response) => {
        response.writeHead(status, { 'content-type': 'text/plain' }).end('try again later');
      };
      await assert.rejects(engine().transcribe(wav, { language: 'en', durationSeconds: 10 }), (error: Error) => {
        assert.ok(!(error instanceof TranscriptionUnavailable), String(error));
        assert.equal(error.message, `the transcription service answered ${status}: try again later`);
        return true;
      });
    });
  }

  test('a server that does not answer in time: an ordinary error', async () => {
    answer = (_, response) => setTimeout(() => json(response, 200, { text: 'late' }), 2000);
    await assert.rejects(engine({ timeoutMs: 200 }).transcribe(wav, { language: 'en', durationSeconds: 10 }), (error: Error) => {
      assert.ok(!(error instanceof TranscriptionUnavailable), String(error));
      assert.match(error.message, /did not answer within 0.2 s$/);
      return true;
    });
  });

  test('a server that cannot be reached: an ordinary error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(engine({ baseUrl: `http://127.0.0.1:${port}/v1` }).transcribe(wav, { language: 'en', durationSeconds: 10 }), (error: Error) => {
      assert.ok(!(error instanceof TranscriptionUnavailable), String(error));
      assert.match(error.message, /could not be reached: .*ECONNREFUSED/);
      return true;
    });
  });

  test('an abort rejects with its reason', async () => {
    answer = (_, response) => setTimeout(() => json(response, 200, { text: 'late' }), 2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 100);
    await assert.rejects(engine().transcribe(wav, { language: 'en', durationSeconds: 10, signal: controller.signal }), /job cancelled/);
  });

  test('a recording over 9 minutes goes in parts, their times moved to the recording’s clock', async () => {
    // 20 minutes of silence: OpenAI takes at most 25 MB a request, and this is 38 MB as one wav.
    const long = join(dir, 'long.wav');
    const bytes = 20 * 60 * 32000;
    await writeFile(long, Buffer.concat([speechWavHeader(bytes), Buffer.alloc(bytes)]));
    answer = (_, response) => json(response, 200, { text: 'part', segments: [{ start: 1, end: 2, text: 'part' }] });
    const transcript = await engine().transcribe(long, { language: 'en', durationSeconds: 1200 });
    assert.equal(received.length, 3);
    for (const request of received) assert.ok(request.file.length < 25 * 1024 * 1024, `${request.file.length} bytes`);
    // Silence everywhere: each cut stays at its even split, 400 s and 800 s.
    assert.deepEqual(
      transcript.segments.map((s) => s.start),
      [1, 401, 801],
    );
    assert.equal(
      received.reduce((sum, r) => sum + r.file.length - 44, 0),
      bytes,
      'every sample sent once',
    );
  });

  test('readiness needs only a base URL, and calls nothing', async () => {
    assert.deepEqual(await engine().readiness(), { ready: true });
    assert.equal(received.length, 0);
    const unconfigured = engine({ baseUrl: null });
    assert.deepEqual(await unconfigured.readiness(), {
      ready: false,
      reason: 'no transcription service is configured; set FOLIO_OPENAI_BASE_URL (e.g. https://api.openai.com/v1) and FOLIO_OPENAI_API_KEY',
    });
    await assert.rejects(unconfigured.transcribe(wav, { language: 'en', durationSeconds: 10 }), TranscriptionUnavailable);
  });
});

/**
 * The OpenAI-compatible summary engine (src/processing/summary/openaiSummarizer.ts) against a
 * stand-in for `POST /v1/chat/completions` on 127.0.0.1: what it sends, what it makes of each kind
 * of reply, and which failures are worth a retry.
 */
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSummarizer, type SummarySettings } from '../../../src/processing/summary/createSummarizer.js';
import { truncateTranscript } from '../../../src/processing/summary/openaiSummarizer.js';
import { SummaryUnavailable, type SummarizeInput } from '../../../src/processing/summary/summarizer.js';

type Json = Record<string, any>;

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Json;
}

/** What the stand-in answers: a status and a body, or nothing at all (`hang`). */
type Answer = { status: number; body: unknown } | 'hang';

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

const REPLY = {
  title: 'Mobile release plan',
  key_points: ['Three payment screen problems were found.', 'The app loads slowly on older phones.', 'Marketing budget unchanged.'],
  decisions: ['Delay the launch by one week.'],
  action_items: ['Alice: send the report by Friday.', 'Bob: book the room.'],
};
const MAPPED = {
  title: 'Mobile release plan',
  keyPoints: REPLY.key_points,
  decisions: REPLY.decisions,
  actionItems: REPLY.action_items,
};

const INPUT: SummarizeInput = {
  segments: [
    { start: 0, end: 4.2, text: 'Let us review the release plan.' },
    { start: 65, end: 70, text: 'We decided to delay the launch by one week.' },
    { start: 71, end: 75, text: ' Alice will send the report by Friday. ' },
  ],
  provisionalTitle: 'Weekly sync',
  language: 'en',
};

describe('openai summary engine', () => {
  const server = http.createServer();
  let answer: Answer = { status: 200, body: completion(JSON.stringify(REPLY)) };
  let received: Received[] = [];
  let baseUrl = '';

  before(async () => {
    server.on('request', (req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body: JSON.parse(raw) });
        if (answer === 'hang') return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    answer = { status: 200, body: completion(JSON.stringify(REPLY)) };
    received = [];
  });

  const engine = (openai: Partial<SummarySettings['openai']> = {}) =>
    createSummarizer({
      engine: 'openai',
      openai: { baseUrl, apiKey: 'sk-test', model: 'gpt-test', timeoutMs: 5000, maxTranscriptChars: 48_000, ...openai },
    });

  /** Runs `attempt` and returns the error it fails with. */
  async function failure(attempt: Promise<unknown>): Promise<Error> {
    try {
      await attempt;
    } catch (error) {
      assert.ok(error instanceof Error, String(error));
      return error;
    }
    assert.fail('expected a failure');
  }

  test('sends the transcript with its times to the chat completions endpoint and maps the JSON reply', async () => {
    const summarizer = engine();
    assert.equal(summarizer.name, 'openai');
    assert.deepEqual(await summarizer.readiness(), { ready: true });
    assert.deepEqual(await summarizer.summarize(INPUT), MAPPED);

    assert.equal(received.length, 1);
    const [request] = received;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, 'Bearer sk-test');
    assert.match(request.headers['content-type']!, /^application\/json/);
    assert.equal(request.body.model, 'gpt-test');
    assert.deepEqual(request.body.response_format, { type: 'json_object' });
    const messages = request.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.match(messages[0].content, /JSON/, 'json_object mode needs the word JSON in the messages');
    assert.match(messages[0].content, /"key_points"/);
    const user = messages[1].content;
    assert.ok(
      user.includes(
        '[00:00] Let us review the release plan.\n[01:05] We decided to delay the launch by one week.\n[01:11] Alice will send the report by Friday.',
      ),
      user,
    );
    assert.ok(user.includes('Weekly sync'), 'the provisional title is context');
  });

  test('without an API key no authorization header is sent', async () => {
    await engine({ apiKey: null }).summarize(INPUT);
    assert.equal(received[0].headers.authorization, undefined);
  });

  test('a reply in a ```json fence, with words around it, is read as well', async () => {
    answer = { status: 200, body: completion(`Here are the notes:\n\`\`\`json\n${JSON.stringify(REPLY, null, 2)}\n\`\`\`\nLet me know if you need more.`) };
    assert.deepEqual(await engine().summarize(INPUT), MAPPED);
  });

  test('lists left out are empty; an empty title falls back to the provisional one', async () => {
    answer = { status: 200, body: completion(JSON.stringify({ title: '', key_points: ['One point.'] })) };
    assert.deepEqual(await engine().summarize(INPUT), { title: 'Weekly sync', keyPoints: ['One point.'], decisions: [], actionItems: [] });
  });

  test('the reply is cut to the limits: 20 items, 2000 characters, a title of 8 words', async () => {
    const long = 'word '.repeat(1000);
    answer = {
      status: 200,
      body: completion(
        JSON.stringify({
          title: 'one two three four five six seven eight nine ten',
          key_points: Array(30).fill(long),
          decisions: ['  ', 'Kept.'],
          action_items: [],
        }),
      ),
    };
    const summary = await engine().summarize(INPUT);
    assert.equal(summary.title, 'One two three four five six seven eight');
    assert.equal(summary.keyPoints.length, 20);
    assert.ok(summary.keyPoints.every((p) => p.length <= 2000));
    assert.deepEqual(summary.decisions, ['Kept.'], 'blank items are dropped');
  });

  for (const [name, content, problem] of [
    ['content that is not JSON', 'Sorry, I cannot help with that.', /not a JSON object/],
    [
      'key_points that is not an array',
      JSON.stringify({ ...REPLY, key_points: 'three problems' }),
      /key_points should be an array of strings, instead was string/,
    ],
    [
      'an action item that is not a string',
      JSON.stringify({ ...REPLY, action_items: ['ok', { task: 'x' }] }),
      /action_items\[1\] should be a string, instead was an object/,
    ],
    ['a title that is not a string', JSON.stringify({ ...REPLY, title: 42 }), /title should be a string, instead was number 42/],
    ['a JSON array', '[1, 2]', /not a JSON object/],
  ] as const) {
    test(`${name}: a retryable Error that says what is wrong`, async () => {
      answer = { status: 200, body: completion(content) };
      const error = await failure(engine().summarize(INPUT));
      assert.ok(!(error instanceof SummaryUnavailable));
      assert.match(error.message, problem);
    });
  }

  test('a response without choices, or not JSON at all: a retryable Error', async () => {
    answer = { status: 200, body: { object: 'chat.completion', choices: [] } };
    assert.match((await failure(engine().summarize(INPUT))).message, /choices\[0\]\.message\.content should be a string/);
    answer = { status: 200, body: '<html>gateway</html>' };
    const error = await failure(engine().summarize(INPUT));
    assert.ok(!(error instanceof SummaryUnavailable));
    assert.match(error.message, /not JSON/);
  });

  test('400 (and other 4xx): SummaryUnavailable, naming the service and its message', async () => {
    for (const status of [400, 401, 404]) {
      answer = { status, body: { error: { message: 'The model `gpt-test` does not exist', type: 'invalid_request_error' } } };
      const error = await failure(engine().summarize(INPUT));
      assert.ok(error instanceof SummaryUnavailable, `${status}: ${error}`);
      assert.match(error.message, new RegExp(`answered ${status}: The model \`gpt-test\` does not exist`));
    }
  });

  test('503, 500, 429 and 408: a plain Error, to retry', async () => {
    for (const status of [503, 500, 429, 408]) {
      answer = { status, body: 'upstream busy' };
      const error = await failure(engine().summarize(INPUT));
      assert.ok(!(error instanceof SummaryUnavailable), `${status}`);
      assert.match(error.message, new RegExp(`answered ${status}: upstream busy`));
    }
  });

  test('no service listening: a plain Error, to retry', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(engine({ baseUrl: `http://127.0.0.1:${port}/v1` }).summarize(INPUT));
    assert.ok(!(error instanceof SummaryUnavailable));
    assert.match(error.message, /could not be reached/);
  });

  test('a service that does not answer in time: a plain Error naming the timeout', async () => {
    answer = 'hang';
    const error = await failure(engine({ timeoutMs: 200 }).summarize(INPUT));
    assert.ok(!(error instanceof SummaryUnavailable));
    assert.match(error.message, /did not answer within 200 ms/);
  });

  test("the job's own cancellation goes up as it came", async () => {
    answer = 'hang';
    const controller = new AbortController();
    const cancelled = new Error('job cancelled');
    setTimeout(() => controller.abort(cancelled), 50);
    assert.equal(await failure(engine().summarize(INPUT, controller.signal)), cancelled);
  });

  test('a long transcript is cut to the budget, keeping its beginning and its end', async () => {
    const segments = Array.from({ length: 2000 }, (_, i) => ({ start: i * 5, end: i * 5 + 5, text: `segment number ${i} of the meeting` }));
    await engine({ maxTranscriptChars: 4000 }).summarize({ ...INPUT, segments });
    const user: string = received[0].body.messages[1].content;
    const transcript = user.slice(user.indexOf('[00:00]'));
    assert.ok(transcript.length <= 4000, `${transcript.length} characters`);
    assert.ok(transcript.length > 3500, 'the budget is used');
    assert.ok(transcript.startsWith('[00:00] segment number 0 of the meeting\n[00:05] segment number 1 of the meeting\n'));
    assert.ok(transcript.endsWith('[2:46:35] segment number 1999 of the meeting'), transcript.slice(-80));
    assert.ok(!transcript.includes('segment number 1000 '), 'the middle is left out');
    assert.match(transcript, /\n\[… the middle of the transcript was left out …\]\n/);
  });

  test('truncateTranscript: within the budget unchanged, beyond it cut between lines', () => {
    assert.equal(truncateTranscript('short', 100), 'short');
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    for (const budget of [200, 1000, 3000]) {
      const cut = truncateTranscript(lines, budget);
      assert.ok(cut.length <= budget, `${cut.length} > ${budget}`);
      assert.ok(cut.startsWith('line 0\n') && cut.endsWith('\nline 499'));
      for (const line of cut.split('\n')) assert.match(line, /^line \d+$|^\[… the middle/);
    }
    // One line longer than the budget is cut inside it.
    const one = truncateTranscript('x'.repeat(10_000), 500);
    assert.ok(one.length <= 500 && one.startsWith('xxx') && one.endsWith('xxx'));
  });

  test('not configured: not ready, with the reason, and summarize refuses', async () => {
    const unconfigured = engine({ baseUrl: null });
    const readiness = await unconfigured.readiness();
    assert.equal(readiness.ready, false);
    assert.match(!readiness.ready ? readiness.reason : '', /FOLIO_OPENAI_BASE_URL/);
    assert.ok((await failure(unconfigured.summarize(INPUT))) instanceof SummaryUnavailable);
    assert.equal(received.length, 0);
  });
});

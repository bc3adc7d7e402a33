/**
 * The local summary engine (src/processing/summary/extractiveSummarizer.ts) on the two kinds of
 * transcript it gets: punctuated sentences from a good recogniser, and bare lowercase segments with
 * misheard words from PocketSphinx.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSummarizer } from '../../../src/processing/summary/createSummarizer.js';
import { summarizeExtractively } from '../../../src/processing/summary/extractiveSummarizer.js';
import type { SummarizeInput, TranscriptSegment } from '../../../src/processing/summary/summarizer.js';

/** Segments of `seconds` each, one per text. */
function segments(texts: readonly string[], seconds = 5): TranscriptSegment[] {
  return texts.map((text, i) => ({ start: i * seconds, end: (i + 1) * seconds, text }));
}

const input = (texts: readonly string[], extra: Partial<SummarizeInput> = {}): SummarizeInput => ({
  segments: segments(texts),
  provisionalTitle: 'Provisional title',
  language: 'en',
  ...extra,
});

const MEETING = [
  'Good morning everyone, thanks for joining.',
  'Today we need to review the release plan for the mobile app.',
  'The testing team found three problems in the payment screen last week.',
  'Two of the payment screen problems are fixed, and the third one is a crash on older Android phones.',
  'Customers also reported that the app loads slowly on older phones.',
  'Marketing wants the launch to happen before the conference in May.',
  'After some discussion, we decided to delay the launch by one week.',
  'That gives the testing team time to verify the payment screen fixes.',
  'The marketing budget stays the same this quarter.',
  'Alice will send the report by Friday.',
  'Bob will book the room for the launch review.',
  'Is the conference booth already paid for?',
  'Yes, the booth was paid for in January.',
  'The loading time on older phones is the next topic for the team.',
  'Thanks everyone, see you next week.',
];

/**
 * Like PocketSphinx's output for a synthesised meeting (measured: roughly 70% of words wrong):
 * lowercase, no punctuation, a segment per pause, and the cue words mostly survive.
 */
const WEAK_RECOGNITION = [
  'good morning every one',
  'let us review the relief plan for the mobile application',
  'the testing team found three problems in the payment screen',
  'we look i like that i used to theories are on the news reported',
  'the payment provider changed their and her face last month',
  'customers reported slow loading on all the phones',
  'we decided to the lay the launch by one week',
  'alice will sent a report by friday',
  'bob will look the room for the review eating',
  'the market to buy tickets to i used to the war',
  'the marketing budget stays the same this quarter',
  'thank you all',
];

describe('extractive summary: a punctuated transcript', () => {
  const summary = summarizeExtractively(input(MEETING));

  test('finds the decision and both action items, and lists neither twice', () => {
    assert.deepEqual(summary.decisions, ['After some discussion, we decided to delay the launch by one week.']);
    assert.ok(summary.actionItems.includes('Alice will send the report by Friday.'), summary.actionItems.join(' | '));
    assert.ok(summary.actionItems.includes('Bob will book the room for the launch review.'), summary.actionItems.join(' | '));
    assert.ok(summary.actionItems.every((item) => !summary.decisions.includes(item)));
    assert.ok(!summary.actionItems.includes('Is the conference booth already paid for?'), 'a question assigns nothing');
  });

  test('key points: 3 to 5 sentences of the transcript, in the order they were said', () => {
    assert.ok(summary.keyPoints.length >= 3 && summary.keyPoints.length <= 5, summary.keyPoints.join(' | '));
    const positions = summary.keyPoints.map((point) => MEETING.indexOf(point));
    assert.ok(
      positions.every((p) => p >= 0),
      `each key point is a sentence said: ${summary.keyPoints.join(' | ')}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
    assert.ok(!summary.keyPoints.includes('Good morning everyone, thanks for joining.'), 'small talk is not a key point');
  });

  test('the title is a short phrase, not the provisional one', () => {
    const words = summary.title.split(/\s+/);
    assert.ok(words.length >= 1 && words.length <= 8, summary.title);
    assert.ok(summary.title.length <= 100);
    assert.notEqual(summary.title, 'Provisional title');
    assert.match(summary.title, /^\p{Lu}/u, 'capitalised');
    assert.match(summary.title.toLowerCase(), /payment|launch|testing|phones/, `names a topic of the meeting: ${summary.title}`);
  });

  test('the same transcript gives the same summary', async () => {
    const engine = createSummarizer({
      engine: 'local',
      openai: { baseUrl: null, apiKey: null, model: 'unused', timeoutMs: 1000, maxTranscriptChars: 48_000 },
    });
    assert.equal(engine.name, 'local');
    assert.deepEqual(await engine.readiness(), { ready: true });
    assert.deepEqual(await engine.summarize(input(MEETING)), summary);
    assert.deepEqual(await engine.summarize(input(MEETING)), await engine.summarize(input(MEETING)));
  });

  test('sentences are found across segment boundaries as well', () => {
    // Whisper's segments end where the speaker paused, not where a sentence does.
    const words = MEETING.join(' ').split(' ');
    const chunks: string[] = [];
    for (let i = 0; i < words.length; i += 7) chunks.push(words.slice(i, i + 7).join(' '));
    assert.deepEqual(summarizeExtractively(input(chunks)), summary);
  });

  test('a cancelled job is not summarised', async () => {
    const engine = createSummarizer({ engine: 'local', openai: { baseUrl: null, apiKey: null, model: 'unused', timeoutMs: 1000, maxTranscriptChars: 1000 } });
    await assert.rejects(engine.summarize(input(MEETING), AbortSignal.abort(new Error('cancelled'))), /cancelled/);
  });
});

describe('extractive summary: weak recognition, lowercase and unpunctuated', () => {
  const summary = summarizeExtractively(input(WEAK_RECOGNITION));

  test('still gives key points, each one segment', () => {
    assert.ok(summary.keyPoints.length >= 1 && summary.keyPoints.length <= 5, summary.keyPoints.join(' | '));
    for (const point of summary.keyPoints) {
      assert.ok(
        WEAK_RECOGNITION.some((segment) => segment.toLowerCase() === point.toLowerCase()),
        `${point} is a segment`,
      );
    }
  });

  test('finds an action item in a segment that says "will", and the decision', () => {
    const said = (item: string) => WEAK_RECOGNITION.find((segment) => segment.toLowerCase() === item.toLowerCase());
    assert.ok(
      summary.actionItems.some((item) => said(item)?.includes(' will ')),
      summary.actionItems.join(' | '),
    );
    assert.ok(summary.actionItems.every((item) => said(item) !== undefined));
    assert.deepEqual(summary.decisions, ['We decided to the lay the launch by one week']);
  });

  test('a title other than the provisional one, short and capitalised', () => {
    assert.notEqual(summary.title, 'Provisional title');
    assert.ok(summary.title.split(' ').length <= 8 && /^\p{Lu}/u.test(summary.title), summary.title);
  });

  test('a single long segment (one pause in a minute of speech) is cut into pieces', () => {
    const long = WEAK_RECOGNITION.join(' ');
    const one = summarizeExtractively(input([long]));
    assert.ok(one.keyPoints.length >= 1);
    for (const point of one.keyPoints) assert.ok(point.split(' ').length <= 60 && long.includes(point.toLowerCase()), point);
    assert.notEqual(one.title, 'Provisional title');
  });
});

describe('extractive summary: nothing or almost nothing said', () => {
  for (const [name, texts] of [
    ['no segments', []],
    ['blank segments', ['', '   ', '[BLANK_AUDIO]']],
    ['a word or two', ['um', 'okay yes']],
  ] as const) {
    test(`${name}: empty lists and the provisional title`, () => {
      assert.deepEqual(summarizeExtractively(input(texts)), { title: 'Provisional title', keyPoints: [], decisions: [], actionItems: [] });
    });
  }

  test('without a provisional title the title is "Meeting notes"', () => {
    assert.deepEqual(summarizeExtractively(input([], { provisionalTitle: null })), { title: 'Meeting notes', keyPoints: [], decisions: [], actionItems: [] });
  });

  test('one short sentence is one key point', () => {
    const summary = summarizeExtractively(input(['Bob will book the room for Tuesday.']));
    assert.deepEqual(summary.keyPoints, ['Bob will book the room for Tuesday.']);
    assert.deepEqual(summary.actionItems, ['Bob will book the room for Tuesday.']);
  });
});

describe('extractive summary: a huge transcript', () => {
  /** 10,000 segments of words drawn by a fixed linear congruential generator: the same on every run. */
  function hugeTranscript(): string[] {
    const vocabulary = (
      'budget launch payment screen customer report room review marketing conference booth phone crash ' +
      'release testing team design server database migration invoice contract hiring roadmap quarter'
    ).split(' ');
    const glue = 'the a we and of to in for on is was that it'.split(' ');
    let state = 42;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    const texts: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      const words = Array.from({ length: 4 + next(12) }, () => (next(3) === 0 ? vocabulary[next(vocabulary.length)] : glue[next(glue.length)]));
      if (i % 97 === 0) words.push('we', 'decided', 'to', 'move', vocabulary[next(vocabulary.length)]);
      if (i % 41 === 0) words.unshift(['alice', 'bob', 'carol'][next(3)], 'will', 'send', 'the');
      // Now and then one "word" the length of a page: a recogniser's runaway output.
      if (i % 2500 === 1) words.push('x'.repeat(5000));
      texts.push(words.join(' '));
    }
    // And one long punctuation-free stretch of real words.
    texts.push(Array.from({ length: 3000 }, (_, i) => vocabulary[i % vocabulary.length]).join(' '));
    return texts;
  }

  test('every item fits a rich text, no list holds more than 20, and it takes well under a second', () => {
    const texts = hugeTranscript();
    const started = performance.now();
    const summary = summarizeExtractively(input(texts));
    const elapsed = performance.now() - started;
    process.stdout.write(`# 10,001 segments summarised in ${elapsed.toFixed(0)} ms\n`);
    assert.ok(elapsed < 2000, `${elapsed} ms`);
    for (const list of [summary.keyPoints, summary.decisions, summary.actionItems]) {
      assert.ok(list.length <= 20, `${list.length} items`);
      for (const item of list) assert.ok(item.length > 0 && item.length <= 2000, `${item.length} characters`);
    }
    assert.ok(summary.keyPoints.length >= 3 && summary.keyPoints.length <= 5);
    assert.equal(summary.decisions.length, 20, 'more decisions than a list holds: the list is full');
    assert.equal(summary.actionItems.length, 20);
    assert.ok(summary.title.length <= 100 && summary.title.split(' ').length <= 8, summary.title);
    assert.deepEqual(summarizeExtractively(input(texts)), summary, 'deterministic at this size too');
  });
});

import { isRecord } from '../../domain/isRecord.js';
import { timestamp } from '../../domain/meetingNotes/resultBlocks.js';
import { fitSummary, MAX_ITEMS, MAX_TITLE_WORDS } from './fitSummary.js';
import { normaliseText } from './sentences.js';
import { SummaryUnavailable, type MeetingSummary, type SummarizeInput, type Summarizer, type TranscriptSegment } from './summarizer.js';

/**
 * The remote engine: any service that speaks OpenAI's chat completions API (OpenAI, Azure's
 * compatible endpoint, Ollama, vLLM, llama.cpp's server) asked for a JSON object. Whether a
 * failure is worth a retry follows HTTP: a refusal of the request itself (bad key, unknown model,
 * 4xx) will not change, a busy or broken service (5xx, 408, 429, no connection) may.
 */

export interface OpenAiSummarySettings {
  /** Up to and including the API version, e.g. `https://api.openai.com/v1`; null when not configured. */
  baseUrl: string | null;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
  /** The transcript sent is cut to this many characters, keeping its beginning and end. */
  maxTranscriptChars: number;
}

/** The reply the prompt asks for. */
interface SummaryReply {
  title: string;
  key_points: string[];
  decisions: string[];
  action_items: string[];
}

const INSTRUCTIONS = [
  'You write the notes of a meeting from its transcript. Each transcript line starts with the time it was said.',
  'The transcript may come from speech recognition and contain misheard words: infer what was meant, never invent what was not said.',
  'Reply with one JSON object and nothing else, with these keys:',
  `"title": a short title naming what the meeting was about, at most ${MAX_TITLE_WORDS} words;`,
  '"key_points": an array of 3 to 5 strings, the main points discussed, fewer for a very short meeting;',
  '"decisions": an array of strings, each a decision the participants made, empty when none;',
  '"action_items": an array of strings, each a task someone agreed to do, naming who and by when when the transcript says so, empty when none.',
  `Each array holds at most ${MAX_ITEMS} items; each item is one or two sentences without list markers.`,
].join('\n');

export function openaiSummarizer(settings: OpenAiSummarySettings): Summarizer {
  return {
    name: 'openai',
    readiness: async () =>
      settings.baseUrl
        ? { ready: true }
        : { ready: false, reason: 'no OpenAI-compatible service is configured for summaries (FOLIO_OPENAI_BASE_URL is not set)' },
    summarize: (input, signal) => summarizeRemotely(settings, input, signal),
  };
}

async function summarizeRemotely(settings: OpenAiSummarySettings, input: SummarizeInput, signal?: AbortSignal): Promise<MeetingSummary> {
  if (!settings.baseUrl) throw new SummaryUnavailable('no OpenAI-compatible service is configured for summaries (FOLIO_OPENAI_BASE_URL is not set)');
  const transcript = truncateTranscript(transcriptText(input.segments), settings.maxTranscriptChars);
  const language = input.language === 'auto' ? 'Write in the language the meeting was held in.' : `Write in the language with code "${input.language}".`;
  const context = input.provisionalTitle ? `\nThe meeting was provisionally titled: ${input.provisionalTitle}` : '';
  const body = {
    model: settings.model,
    messages: [
      { role: 'system', content: `${INSTRUCTIONS}\n${language}` },
      { role: 'user', content: `Transcript:${context}\n\n${transcript || '(nothing was said)'}` },
    ],
    response_format: { type: 'json_object' },
  };
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    text = await response.text();
  } catch (error) {
    // The job's own cancellation goes up as it came; anything else is the service or the network.
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) throw new Error(`the summary service at ${url} did not answer within ${settings.timeoutMs} ms`);
    throw new Error(`the summary service at ${url} could not be reached: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) {
    const message = `the summary service at ${url} answered ${response.status}: ${errorMessage(text)}`;
    const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
    throw retryable || response.status < 400 ? new Error(message) : new SummaryUnavailable(message);
  }
  const reply = parseReply(text);
  return fitSummary({ title: reply.title, keyPoints: reply.key_points, decisions: reply.decisions, actionItems: reply.action_items }, input.provisionalTitle);
}

/** One line per segment with the time it starts: the model can tell the order and the pauses. */
export function transcriptText(segments: readonly TranscriptSegment[]): string {
  return segments
    .map((segment) => ({ start: segment.start, text: normaliseText(segment.text) }))
    .filter((segment) => segment.text)
    .map((segment) => `${timestamp(segment.start)} ${segment.text}`)
    .join('\n');
}

/**
 * A transcript longer than the budget loses its middle: a meeting's purpose is stated at its start
 * and its decisions and tasks are summed up at its end. Cuts fall between lines when one is near.
 */
export function truncateTranscript(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const marker = '\n[… the middle of the transcript was left out …]\n';
  if (budget <= marker.length * 2) return text.slice(0, budget);
  const headBudget = Math.floor((budget - marker.length) / 2);
  const tailBudget = budget - marker.length - headBudget;
  let head = text.slice(0, headBudget);
  const lastBreak = head.lastIndexOf('\n');
  if (lastBreak > headBudget / 2) head = head.slice(0, lastBreak);
  let tail = text.slice(text.length - tailBudget);
  const firstBreak = tail.indexOf('\n');
  if (firstBreak >= 0 && firstBreak < tailBudget / 2) tail = tail.slice(firstBreak + 1);
  return `${head}${marker}${tail}`;
}

/** OpenAI's error body names the problem (`{"error": {"message": …}}`); others send text. */
function errorMessage(body: string): string {
  const parsed = parseJson(body);
  const message = isRecord(parsed) && isRecord(parsed.error) ? parsed.error.message : isRecord(parsed) ? parsed.message : undefined;
  if (typeof message === 'string' && message) return message.slice(0, 500);
  return body.trim().slice(0, 500) || '(empty body)';
}

/** The reply's message content as the summary object, or an Error that says what is wrong with it. */
export function parseReply(body: string): SummaryReply {
  const fail = (problem: string) => new Error(`the summary service's reply is unusable: ${problem}`);
  const completion = parseJson(body);
  if (completion === undefined) throw fail(`the response is not JSON: ${body.slice(0, 200)}`);
  const choice = isRecord(completion) && Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') throw fail('choices[0].message.content should be a string');
  // Models asked for JSON sometimes still wrap it in a Markdown fence, or say a word before it.
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(content);
  const inner = fenced ? fenced[1] : content.slice(content.indexOf('{'), content.lastIndexOf('}') + 1);
  const parsed = parseJson(inner);
  if (!isRecord(parsed)) throw fail(`the message content is not a JSON object: ${content.slice(0, 200)}`);
  const title = parsed.title ?? '';
  if (typeof title !== 'string') throw fail(`title should be a string, instead was ${describe(title)}`);
  const list = (key: keyof SummaryReply): string[] => {
    // A model that found no decisions may leave the key out; that is an empty list, not an error.
    const value = parsed[key] ?? [];
    if (!Array.isArray(value)) throw fail(`${key} should be an array of strings, instead was ${describe(value)}`);
    const wrong = value.findIndex((item) => typeof item !== 'string');
    if (wrong >= 0) throw fail(`${key}[${wrong}] should be a string, instead was ${describe(value[wrong])}`);
    return value as string[];
  };
  return { title, key_points: list('key_points'), decisions: list('decisions'), action_items: list('action_items') };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 50)}`;
}

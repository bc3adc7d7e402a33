import { openAsBlob } from 'node:fs';
import { isMeetingLanguage, languageCode, languageName, whisperLanguage } from './languageCodes.js';
import { tidySegments } from './tidySegments.js';
import { TranscriptionUnavailable, type Readiness, type TranscribeOptions, type Transcriber, type Transcript, type TranscriptSegment } from './transcriber.js';
import { readSpeechWavLayout, speechWavHeader, type WavLayout } from '../media/wavFile.js';
import { splitAtPauses, type WavChunk } from '../media/splitAtPauses.js';

export interface OpenAiTranscriptionSettings {
  /** Up to and including the version segment, e.g. https://api.openai.com/v1; null: not configured. */
  baseUrl: string | null;
  apiKey: string | null;
  model: string;
  /** For each request. */
  timeoutMs: number;
}

/**
 * OpenAI refuses uploads over 25 MB; 16 kHz 16-bit mono is 1.92 MB a minute, so recordings are
 * sent in parts of about 9 minutes (≤ 9 min 20 s after moving each cut to a pause, ≈ 18 MB).
 */
const PART_SECONDS = 9 * 60;

/** The verbose_json answer, as far as it is used. */
interface TranscriptionAnswer {
  text?: unknown;
  language?: unknown;
  segments?: unknown;
}

/**
 * The `openai` engine: any server speaking OpenAI's `POST /audio/transcriptions` (OpenAI itself,
 * a self-hosted faster-whisper or whisper.cpp server, a gateway). Parts of a long recording are
 * sent one after another, each with its own timeout, their times shifted to the recording's.
 */
export class OpenAiTranscriber implements Transcriber {
  readonly name = 'openai';

  constructor(private readonly settings: OpenAiTranscriptionSettings) {}

  async readiness(): Promise<Readiness> {
    // No request at start-up: a server that is down now may be up by the first job, and the job retries.
    if (!this.settings.baseUrl) {
      return {
        ready: false,
        reason: 'no transcription service is configured; set FOLIO_OPENAI_BASE_URL (e.g. https://api.openai.com/v1) and FOLIO_OPENAI_API_KEY',
      };
    }
    return { ready: true };
  }

  refuseLanguage(language: string): string | null {
    if (isMeetingLanguage(language)) return null;
    return `the openai engine does not take the language hint "${language}" (${languageName(language)}); use auto or one of the listed languages`;
  }

  async transcribe(wavPath: string, options: TranscribeOptions): Promise<Transcript> {
    const refusal = this.refuseLanguage(options.language);
    if (refusal) throw new TranscriptionUnavailable(refusal);
    const ready = await this.readiness();
    if (!ready.ready) throw new TranscriptionUnavailable(ready.reason);

    const layout = await readSpeechWavLayout(wavPath);
    const chunks = await splitAtPauses(wavPath, layout, Math.max(1, Math.ceil(layout.durationSeconds / PART_SECONDS)));
    const recording = await openAsBlob(wavPath);
    const segments: TranscriptSegment[] = [];
    let detected: string | null = null;
    for (const chunk of chunks) {
      const answer = await this.send(partOf(recording, layout, chunk), options);
      detected ??= languageCode(typeof answer.language === 'string' ? answer.language : null);
      segments.push(...answerSegments(answer, chunk));
    }
    return {
      engine: this.name,
      language: options.language === 'auto' ? detected : options.language,
      segments: tidySegments(segments, options.durationSeconds || layout.durationSeconds),
    };
  }

  private async send(file: Blob, options: TranscribeOptions): Promise<TranscriptionAnswer> {
    const form = new FormData();
    form.append('file', file, 'recording.wav');
    form.append('model', this.settings.model);
    const language = whisperLanguage(options.language);
    if (language) form.append('language', language);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');

    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const url = `${this.settings.baseUrl}/audio/transcriptions`;
    let response: Response;
    let body: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: this.settings.apiKey ? { authorization: `Bearer ${this.settings.apiKey}` } : {},
        body: form,
        signal,
      });
      body = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) throw new Error(`the transcription service at ${this.settings.baseUrl} did not answer within ${this.settings.timeoutMs / 1000} s`);
      const cause = (error as Error & { cause?: Error }).cause;
      throw new Error(`the transcription service at ${this.settings.baseUrl} could not be reached: ${cause?.message ?? (error as Error).message}`);
    }

    if (!response.ok) {
      const message = `the transcription service answered ${response.status}: ${errorMessage(body)}`;
      // Timeouts and rate limits pass; other refusals (bad key, bad model, bad file) would be repeated.
      if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) throw new TranscriptionUnavailable(message);
      throw new Error(message);
    }
    try {
      const answer = JSON.parse(body) as TranscriptionAnswer;
      if (answer && typeof answer === 'object' && typeof answer.text === 'string') return answer;
    } catch {
      // Reported below with the rest of the unexpected answers.
    }
    throw new Error(`the transcription service answered something other than a verbose_json transcript: ${body.slice(0, 200)}`);
  }
}

/** A chunk as a wav of its own, read lazily from disk when the request is sent. */
function partOf(recording: Blob, layout: WavLayout, chunk: WavChunk): Blob {
  const samples = recording.slice(layout.dataOffset + chunk.startByte, layout.dataOffset + chunk.endByte);
  return new Blob([new Uint8Array(speechWavHeader(chunk.endByte - chunk.startByte)), samples], { type: 'audio/wav' });
}

/** The answer's segments on the recording's clock; a server that gives only text gets one segment for the part. */
function answerSegments(answer: TranscriptionAnswer, chunk: WavChunk): TranscriptSegment[] {
  const shift = chunk.startSeconds;
  if (Array.isArray(answer.segments) && answer.segments.length > 0) {
    return answer.segments
      .filter(
        (s): s is { start: number; end: number; text: string } => typeof s?.start === 'number' && typeof s?.end === 'number' && typeof s?.text === 'string',
      )
      .map((s) => ({ start: shift + s.start, end: shift + s.end, text: s.text }));
  }
  return [{ start: shift, end: shift + chunk.durationSeconds, text: String(answer.text) }];
}

/** OpenAI's `{"error": {"message": …}}`, or the start of whatever else the server said. */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    if (typeof parsed.error === 'object' && typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.message === 'string') return parsed.message;
    if (typeof parsed.detail === 'string') return parsed.detail;
  } catch {
    // Not JSON: a proxy's HTML page or plain text.
  }
  return body.trim().slice(0, 300) || 'no message';
}

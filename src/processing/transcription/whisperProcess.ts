/**
 * The child process that runs whisper.cpp for WhisperTranscriber (whisperTranscriber.ts). Apart
 * because the binding's `full()` blocks its thread for the whole recording and cannot be stopped
 * (its abort callback always answers "go on"), and because whisper.cpp aborts the process on some
 * malformed models (GGML_ASSERT): killing a child is the only way to cancel or survive either.
 *
 * Protocol (IPC, JSON): the parent sends a WhisperRequest and gets `loaded` (or `load_failed`)
 * and then `done` or `failed`. The model stays loaded for the next request.
 */
import type { Whisper as WhisperModel } from '@napi-rs/whisper';
import { readSpeechFloat32 } from '../media/wavFile.js';
import type { TranscriptSegment } from './transcriber.js';

export interface WhisperRequest {
  modelPath: string;
  wavPath: string;
  /** ISO 639-1, or null to detect. */
  language: string | null;
  threads: number;
}

export type WhisperReply =
  | { type: 'loaded' }
  | { type: 'load_failed'; message: string }
  | { type: 'done'; language: string | null; segments: TranscriptSegment[] }
  | { type: 'failed'; message: string };

let loaded: { path: string; model: WhisperModel } | null = null;

function reply(message: WhisperReply): void {
  process.send!(message);
}

async function handle(request: WhisperRequest): Promise<void> {
  let binding: typeof import('@napi-rs/whisper');
  try {
    binding = await import('@napi-rs/whisper');
  } catch (error) {
    return reply({ type: 'load_failed', message: `the whisper.cpp binding (@napi-rs/whisper) does not load here: ${(error as Error).message}` });
  }
  if (loaded?.path !== request.modelPath) {
    loaded = null;
    try {
      loaded = { path: request.modelPath, model: new binding.Whisper(request.modelPath) };
    } catch (error) {
      return reply({ type: 'load_failed', message: (error as Error).message });
    }
  }
  reply({ type: 'loaded' });

  try {
    const samples = await readSpeechFloat32(request.wavPath);
    const params = new binding.WhisperFullParams(binding.WhisperSamplingStrategy.Greedy);
    params.language = request.language ?? 'auto';
    params.nThreads = request.threads;
    params.translate = false;
    // whisper.cpp can carry the previous run's text into the next as a prompt: one meeting must never colour another's transcript.
    params.noContext = true;
    params.printProgress = false;
    params.printRealtime = false;
    params.printTimestamps = false;
    params.suppressBlank = true;
    params.suppressNonSpeechTokens = true;
    const raw: { start: number; end: number; text: string }[] = [];
    params.onNewSegment = (segment) => raw.push(segment);
    const text = loaded!.model.full(params, samples);
    await segmentsDelivered(raw, text);
    const detected = binding.Whisper.lang(loaded!.model.fullLangId);
    // whisper.cpp times are in centiseconds.
    const segments = raw.map((s) => ({ start: s.start / 100, end: s.end / 100, text: s.text }));
    reply({ type: 'done', language: request.language ?? detected ?? null, segments });
  } catch (error) {
    reply({ type: 'failed', message: (error as Error).message });
  }
}

/**
 * `full()` returns before its segments reach `onNewSegment`: the binding queues them on a
 * thread-safe function that runs only once the event loop turns. They have all arrived when their
 * text adds up to the text `full()` returned.
 */
async function segmentsDelivered(raw: { text: string }[], text: string): Promise<void> {
  const expected = text.replace(/\s+/g, '');
  for (let turn = 0; turn < 1000; turn++) {
    if (
      raw
        .map((s) => s.text)
        .join('')
        .replace(/\s+/g, '') === expected
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, turn < 10 ? 0 : 10));
  }
}

process.on('message', (request: WhisperRequest) => {
  void handle(request);
});
// The parent went away: nobody is left to read the result.
process.on('disconnect', () => process.exit(0));

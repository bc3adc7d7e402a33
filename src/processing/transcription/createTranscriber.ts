import { OpenAiTranscriber } from './openaiTranscriber.js';
import { PocketsphinxTranscriber } from './pocketsphinxTranscriber.js';
import type { Transcriber } from './transcriber.js';
import { WhisperTranscriber, whisperThreads } from './whisperTranscriber.js';

export interface TranscriptionSettings {
  engine: 'local' | 'whisper' | 'openai';
  /** null: `pocketsphinx_continuous` on PATH. */
  pocketsphinxPath: string | null;
  /** Where a binary named without a path is looked for (PATH). */
  searchPath: string;
  /** Recognisers (local) or threads (whisper) working on one recording. */
  parallelism: number;
  whisperModel: string | null;
  openai: { baseUrl: string | null; apiKey: string | null; model: string; timeoutMs: number };
}

/** The configured engine. Nothing is loaded or contacted here: readiness() says whether it can run. */
export function createTranscriber(settings: TranscriptionSettings): Transcriber {
  switch (settings.engine) {
    case 'local':
      return new PocketsphinxTranscriber({ binaryPath: settings.pocketsphinxPath, searchPath: settings.searchPath, parallelism: settings.parallelism });
    case 'whisper':
      return new WhisperTranscriber({ modelPath: settings.whisperModel, threads: whisperThreads(settings.parallelism) });
    case 'openai':
      return new OpenAiTranscriber(settings.openai);
  }
}

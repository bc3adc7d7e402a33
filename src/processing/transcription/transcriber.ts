/**
 * The transcription engines' contract: from the decoded recording (16 kHz mono 16-bit wav,
 * src/processing/media/decodeAudio.ts) to timed text. Engines are chosen by configuration
 * (createTranscriber.ts); src/commands/meetingNotes/processMeetingNote.ts runs them.
 */

// The hints the API accepts are the domain's; re-exported so engines and their callers import one module.
export { MEETING_LANGUAGES, type MeetingLanguage } from '../../schemas/meetingLanguages.js';

/** One utterance, times in seconds from the start of the recording. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  engine: string;
  /** The language transcribed: the hint, or what the engine detected; null when unknown. */
  language: string | null;
  segments: TranscriptSegment[];
}

export interface TranscribeOptions {
  /** `auto` or one of MEETING_LANGUAGES. */
  language: string;
  durationSeconds: number;
  signal?: AbortSignal;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

export interface Transcriber {
  readonly name: 'local' | 'whisper' | 'openai';
  /** Can it run at all here (binary, model, URL present)? Cheap and local: checked at start-up, by the health route and before each job. */
  readiness(): Promise<Readiness>;
  /** null when the language is supported, else a user-facing reason. */
  refuseLanguage(language: string): string | null;
  transcribe(wavPath: string, options: TranscribeOptions): Promise<Transcript>;
}

/** The engine cannot run here, or not for this language: retrying will not help, the job ends. The message is shown to users. */
export class TranscriptionUnavailable extends Error {
  override name = 'TranscriptionUnavailable';
}

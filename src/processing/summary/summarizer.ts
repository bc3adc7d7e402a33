/**
 * The summary engines' contract: from a meeting's transcript to the summary block (key points),
 * the notes block (decisions, action items) and the title that replaces the provisional one
 * (src/commands/meetingNotes/processMeetingNote.ts writes them).
 */

import type { Readiness, TranscriptSegment } from '../transcription/transcriber.js';

/** One recognised stretch of speech, times in seconds: the transcription engines' own shape. */
export type { Readiness, TranscriptSegment };

export interface MeetingSummary {
  title: string;
  keyPoints: string[];
  decisions: string[];
  actionItems: string[];
}

export interface SummarizeInput {
  segments: readonly TranscriptSegment[];
  provisionalTitle: string | null;
  /** `auto` or a code such as `en` (src/domain/meetingNotes/languages.ts). */
  language: string;
}

export interface Summarizer {
  readonly name: 'local' | 'openai';
  /** Cheap and local: says whether the engine is configured, without calling anything remote. */
  readiness(): Promise<Readiness>;
  summarize(input: SummarizeInput, signal?: AbortSignal): Promise<MeetingSummary>;
}

/** The engine cannot summarise this input as configured: retrying will not help, the job ends. */
export class SummaryUnavailable extends Error {
  override name = 'SummaryUnavailable';
}

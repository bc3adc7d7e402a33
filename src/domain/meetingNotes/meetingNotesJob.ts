import type { MeetingLanguage } from '../../schemas/meetingLanguages.js';

/** The job kind a meeting notes block is processed by (src/commands/meetingNotes/processMeetingNote.ts). */
export const MEETING_NOTES_JOB = 'meeting_notes';

/** Claims before a job that keeps failing (or whose worker keeps dying) ends `transcription_failed`. */
export const MEETING_NOTES_MAX_ATTEMPTS = 3;

/** What creation fixes for the job: the block, its media, and for whom it runs. */
export interface MeetingNotesJobPayload {
  blockId: string;
  uploadId: string;
  language: MeetingLanguage;
  kickoffSummary: boolean;
  provisionalTitle: string | null;
  /** The connection that created the block: its credit limit applies, its bot authors the results. */
  connectionId: string;
  actorId: string;
}

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** The job's checkpoint: what is already done, so a retry resumes after it (never charges or writes twice). */
export interface MeetingNotesProgress {
  /** Credits charged for this recording. */
  charged?: number;
  durationSeconds?: number;
  /** Written with the transcript block, in the same transaction. */
  transcript?: { engine: string; language: string | null; segments: TimedText[] };
}

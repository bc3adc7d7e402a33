/** The states of a meeting notes block (spec, "Meeting notes block"); the status machine is src/domain/meetingNotes/meetingNotesBlock.ts. */
export const MEETING_NOTES_STATUSES = [
  'transcription_not_started',
  'transcription_paused',
  'transcription_in_progress',
  'transcription_failed',
  'summary_in_progress',
  'notes_ready',
] as const;

export type MeetingNotesStatus = (typeof MEETING_NOTES_STATUSES)[number];

import type { RichTextItem } from '../richText.js';
import { textItem } from '../richText.js';
import type { MeetingNotesStatus } from '../../schemas/meetingNotesStatuses.js';

/**
 * The stored member of a `meeting_notes` block (spec, "Meeting notes block"): exactly the fields
 * the block shows, nothing hidden; what processing needs lives on its job (src/storage/repositories/jobs.ts).
 */
export interface MeetingNotesMember {
  title: RichTextItem[];
  status: MeetingNotesStatus;
  children?: { summary_block_id?: string; notes_block_id?: string; transcript_block_id?: string };
  calendar_event?: { start_time: string; end_time: string; attendees?: string[] };
  recording?: { start_time: string; end_time: string };
}

/**
 * The status machine (docs/decisions.md "Meeting notes"): waiting (not started or paused) →
 * transcription_in_progress → summary_in_progress → notes_ready, or straight to notes_ready when
 * no summary was asked for; transcription_failed from any working state. A retry may announce a
 * state again (a worker died mid-step), so each state may follow itself.
 */
const NEXT: Record<MeetingNotesStatus, readonly MeetingNotesStatus[]> = {
  transcription_not_started: ['transcription_paused', 'transcription_in_progress', 'summary_in_progress', 'transcription_failed'],
  transcription_paused: ['transcription_not_started', 'transcription_in_progress', 'summary_in_progress', 'transcription_failed'],
  transcription_in_progress: ['transcription_in_progress', 'transcription_paused', 'summary_in_progress', 'notes_ready', 'transcription_failed'],
  summary_in_progress: ['summary_in_progress', 'transcription_paused', 'notes_ready', 'transcription_failed'],
  notes_ready: [],
  transcription_failed: [],
};

export function canMove(from: MeetingNotesStatus, to: MeetingNotesStatus): boolean {
  return NEXT[from].includes(to);
}

/** A plain title as rich text: items of at most 2000 characters (the rich text limit), at most 100 of them. */
export function titleItems(title: string | null | undefined): RichTextItem[] {
  if (!title) return [];
  const items: RichTextItem[] = [];
  for (let i = 0; i < title.length && items.length < 100; i += 2000) items.push(textItem(title.slice(i, i + 2000)));
  return items;
}

export function newMeetingNotesMember(title: string | undefined, paused: boolean): MeetingNotesMember {
  return { title: titleItems(title), status: paused ? 'transcription_paused' : 'transcription_not_started' };
}

/**
 * What a recording may be: audio or video, except WebM (spec: "WebM audio is not supported"; a
 * WebM video's sound is WebM audio too). Null when accepted, else why not.
 */
export function refuseRecordingType(contentType: string | null): string | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (!type.startsWith('audio/') && !type.startsWith('video/'))
    return `should be an audio or video file (this one is ${type ? `\`${type}\`` : 'of unknown type'})`;
  if (type.endsWith('/webm')) return 'should not be WebM: WebM audio is not supported';
  return null;
}

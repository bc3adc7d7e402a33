import type { JobKind } from '../jobKind.js';
import { MEETING_NOTES_JOB, type MeetingNotesJobPayload } from '../../domain/meetingNotes/meetingNotesJob.js';
import { failMeetingNote, isPermanentMeetingNotesFailure, processMeetingNote, removeStaleWorkDirs } from '../../commands/meetingNotes/processMeetingNote.js';
import { processingPaused } from '../../commands/meetingNotes/processingPause.js';
import { engineReadiness } from '../../commands/meetingNotes/engineReadiness.js';

/** Meeting notes processing: decode, transcribe, summarise (src/commands/meetingNotes/processMeetingNote.ts). */
export const meetingNotesJobKind: JobKind<MeetingNotesJobPayload> = {
  name: MEETING_NOTES_JOB,
  slots: (config) => config.jobs.meetingNotesSlots,
  handler: (ctx) => ({
    run: (job) => processMeetingNote(ctx, ctx.meetingNotes, job),
    fail: (trx, row, reason) => failMeetingNote(ctx, trx, row, reason),
    permanent: isPermanentMeetingNotesFailure,
  }),
  // One switch for the store (POST /admin/v1/processing): paused, no worker claims a note.
  paused: (ctx) => processingPaused(ctx.store.db),
  async prepare(ctx, slots) {
    // Said even when this process runs none: /readyz and the log tell the operator the same.
    for (const [role, state] of Object.entries(await engineReadiness(ctx))) {
      if (state.ready) ctx.log.info({ engine: state.engine }, `meeting notes ${role} ready`);
      else ctx.log.warn({ engine: state.engine, reason: state.reason }, `meeting notes ${role} unusable: meeting notes will end transcription_failed`);
    }
    if (slots === 0) return;
    const removed = await removeStaleWorkDirs(ctx.meetingNotes.workDir);
    if (removed > 0) ctx.log.info({ removed }, 'removed decode directories left by workers that died');
  },
};

import type { AppContext } from '../../context.js';
import type { Db } from '../../storage/db.js';
import { readSetting, writeSetting } from '../../storage/repositories/settings.js';
import { listJobs } from '../../storage/repositories/jobs.js';
import { MEETING_NOTES_JOB } from '../../domain/meetingNotes/meetingNotesJob.js';
import { setMeetingNotesStatus } from './meetingNotesStatus.js';
import type { MeetingNotesStatus } from '../../schemas/meetingNotesStatuses.js';

/** One switch for the whole store, so every instance and `folio worker` pauses together. */
const PAUSED_SETTING = 'processing_paused';

export async function processingPaused(db: Db): Promise<boolean> {
  return (await readSetting(db, PAUSED_SETTING)) === '1';
}

/**
 * Pauses or resumes meeting-notes processing. Paused, workers claim nothing, and every block
 * still waiting shows `transcription_paused`; a job already running finishes the step it is in.
 * Resumed, the waiting blocks are `transcription_not_started` again and workers take them.
 */
export async function setProcessingPaused(ctx: AppContext, paused: boolean): Promise<{ paused: boolean; blocks: number }> {
  const moved = await ctx.store.transaction(async (trx) => {
    await writeSetting(trx, PAUSED_SETTING, paused ? '1' : '0');
    let count = 0;
    let after: string | null = null;
    for (;;) {
      const queued = await listJobs(trx, { state: 'queued', kind: MEETING_NOTES_JOB }, after, 500);
      if (queued.length === 0) break;
      after = queued[queued.length - 1].id;
      const at = ctx.clock.now().toISOString();
      for (const job of queued) {
        const from: MeetingNotesStatus[] = paused ? ['transcription_not_started'] : ['transcription_paused'];
        if (await setMeetingNotesStatus(trx, job.subject_id, paused ? 'transcription_paused' : 'transcription_not_started', { at, only: from })) count++;
      }
    }
    return count;
  });
  return { paused, blocks: moved };
}

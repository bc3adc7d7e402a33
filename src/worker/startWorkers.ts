import type { AppContext } from '../context.js';
import { JobWorker } from './jobWorker.js';
import { meetingNotesHandler, removeStaleWorkDirs } from '../commands/meetingNotes/processMeetingNote.js';
import { processingPaused } from '../commands/meetingNotes/processingPause.js';
import { engineReadiness } from '../commands/meetingNotes/engineReadiness.js';

/**
 * Starts this process's job workers (FOLIO_WORKERS of them; none when 0) on the core, after
 * saying in the log whether each meeting-notes engine can run here and, if not, why.
 */
export async function startWorkers(ctx: AppContext, concurrency = ctx.config.jobs.concurrency): Promise<JobWorker | null> {
  for (const [role, state] of Object.entries(await engineReadiness(ctx))) {
    if (state.ready) ctx.log.info({ engine: state.engine }, `meeting notes ${role} ready`);
    else ctx.log.warn({ engine: state.engine, reason: state.reason }, `meeting notes ${role} unusable: meeting notes will end transcription_failed`);
  }
  if (concurrency === 0) return null;
  const removed = await removeStaleWorkDirs(ctx.meetingNotes.workDir);
  if (removed > 0) ctx.log.info({ removed }, 'removed decode directories left by workers that died');
  const worker = new JobWorker(ctx, [meetingNotesHandler(ctx, ctx.meetingNotes)], { ...ctx.config.jobs, concurrency }, () => processingPaused(ctx.store.db));
  worker.start();
  ctx.log.info({ worker: worker.id, concurrency }, 'job worker started');
  return worker;
}

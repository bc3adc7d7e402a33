import type { AppContext } from '../../context.js';
import type { AdminListOptions } from '../../schemas/admin.js';
import { countJobsByState, listJobs, type JobFilter } from '../../storage/repositories/jobs.js';
import { processingPaused, setProcessingPaused } from '../meetingNotes/processingPause.js';
import { adminListPage } from './adminListPage.js';
import { engineReadiness } from '../meetingNotes/engineReadiness.js';

/** What an operator sees of background processing: paused or not, jobs per state, and each engine's readiness. */
export async function readProcessing(ctx: AppContext) {
  const [paused, jobs, engines] = await Promise.all([processingPaused(ctx.store.db), countJobsByState(ctx.store.db), engineReadiness(ctx)]);
  return { paused, jobs, ...engines };
}

export async function pauseProcessing(ctx: AppContext, paused: boolean) {
  const moved = await setProcessingPaused(ctx, paused);
  if (!paused) ctx.jobs.wake();
  return { ...(await readProcessing(ctx)), blocks_changed: moved.blocks };
}

export async function listAllJobs(ctx: AppContext, filter: JobFilter, options: AdminListOptions) {
  return adminListPage(
    'admin-jobs',
    options,
    (after, limit) => listJobs(ctx.store.db, filter, after, limit),
    (row) => row.id,
  );
}

import { parseIdParam } from '../ids/ids.js';
import { AdminJob, AdminList, AdminProcessing, JobsQuery } from '../schemas/admin.js';
import { presentAdminList, presentJob, presentProcessing } from '../presenters/adminObjects.js';
import { listAllJobs, pauseProcessing, readProcessing } from '../commands/admin/processing.js';
import { adminOperation, type AnyAdminOperation } from './adminOperation.js';

/**
 * Background processing for operators: pause and resume it (meeting notes waiting show
 * `transcription_paused`), see engines and queue, list jobs with their last error. Server only:
 * pausing acts on the running server's workers.
 */
export const PROCESSING_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'GET',
    path: '/processing',
    response: AdminProcessing,
    run: (ctx) => readProcessing(ctx),
    present: presentProcessing,
  }),
  adminOperation({
    method: 'POST',
    path: '/processing/pause',
    response: AdminProcessing,
    run: (ctx) => pauseProcessing(ctx, true),
    present: presentProcessing,
  }),
  adminOperation({
    method: 'POST',
    path: '/processing/resume',
    response: AdminProcessing,
    run: (ctx) => pauseProcessing(ctx, false),
    present: presentProcessing,
  }),
  adminOperation({
    method: 'GET',
    path: '/jobs',
    query: JobsQuery,
    response: AdminList(AdminJob),
    run: (ctx, { query }) => {
      const { state, kind, subject_id, ...page } = query;
      const subjectId = subject_id === undefined ? undefined : parseIdParam(subject_id, 'subject_id');
      return listAllJobs(ctx, { state, kind, subjectId }, page);
    },
    present: (list) => presentAdminList(list, presentJob),
  }),
];

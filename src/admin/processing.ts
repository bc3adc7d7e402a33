import { parseIdParam } from '../ids/ids.js';
import { AdminJob, AdminList, AdminProcessing, JobsQuery } from '../schemas/admin.js';
import { presentAdminList, presentJob, presentProcessing } from '../presenters/adminObjects.js';
import { listAllJobs, pauseProcessing, readProcessing } from '../commands/admin/processing.js';
import { adminOperation, plainOperation, type AnyAdminOperation } from './adminOperation.js';

/**
 * Background processing for operators: pause and resume it (meeting notes waiting show
 * `transcription_paused`), see engines and queue, list jobs with their last error. Server only:
 * pausing acts on the running server's workers.
 */
export const PROCESSING_OPERATIONS: readonly AnyAdminOperation[] = [
  plainOperation('GET', '/processing', AdminProcessing, readProcessing, presentProcessing),
  plainOperation('POST', '/processing/pause', AdminProcessing, (ctx) => pauseProcessing(ctx, true), presentProcessing),
  plainOperation('POST', '/processing/resume', AdminProcessing, (ctx) => pauseProcessing(ctx, false), presentProcessing),
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

import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { PaginationQuery } from '../../schemas/common.js';
import { parseIdParam } from '../../ids/ids.js';
import { presentAdminList, presentJob, presentProcessing } from '../../presenters/adminObjects.js';
import { listAllJobs, pauseProcessing, readProcessing } from '../../commands/admin/processing.js';

const JobsQuery = Type.Object(
  {
    ...PaginationQuery.properties,
    state: Type.Optional(Type.Union(['queued', 'running', 'done', 'failed'].map((s) => Type.Literal(s as 'queued' | 'running' | 'done' | 'failed')))),
    kind: Type.Optional(Type.String({ maxLength: 100 })),
    subject_id: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

/**
 * Background processing for operators: pause and resume it (meeting notes waiting show
 * `transcription_paused`), see engines and queue, list jobs with their last error.
 */
export function registerProcessingAdminRoutes(app: App, ctx: AppContext): void {
  app.get('/admin/v1/processing', async () => presentProcessing(await readProcessing(ctx)));
  app.post('/admin/v1/processing/pause', async () => presentProcessing(await pauseProcessing(ctx, true)));
  app.post('/admin/v1/processing/resume', async () => presentProcessing(await pauseProcessing(ctx, false)));
  app.get('/admin/v1/jobs', { schema: { querystring: JobsQuery } }, async (request) => {
    const { state, kind, subject_id, ...page } = request.query;
    const subjectId = subject_id === undefined ? undefined : parseIdParam(subject_id, 'subject_id');
    return presentAdminList(await listAllJobs(ctx, { state, kind, subjectId }, page), presentJob);
  });
}

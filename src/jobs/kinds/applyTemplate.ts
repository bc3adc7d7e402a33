import type { JobKind } from '../jobKind.js';
import { APPLY_TEMPLATE_JOB, applyTemplate, type ApplyTemplatePayload } from '../../commands/templates/applyTemplate.js';

/** Templates asked for by POST and PATCH /v1/pages, applied in the background as the service does (src/commands/templates/applyTemplate.ts). */
export const applyTemplateJobKind: JobKind<ApplyTemplatePayload> = {
  name: APPLY_TEMPLATE_JOB,
  slots: (config) => config.jobs.applyTemplateSlots,
  handler: (ctx) => ({ run: (job) => applyTemplate(ctx, job) }),
};

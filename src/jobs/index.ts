import type { JobKind } from './jobKind.js';
import { meetingNotesJobKind } from './kinds/meetingNotes.js';
import { fileImportJobKind } from './kinds/fileImport.js';
import { asyncTaskJobKind } from './kinds/asyncTask.js';
import { applyTemplateJobKind } from './kinds/applyTemplate.js';
import { webhookDeliveryJobKind } from './kinds/webhookDelivery.js';
import { webhookHandshakeJobKind } from './kinds/webhookHandshake.js';

/**
 * Every kind of background job, as src/routes/index.ts lists route groups: the server and
 * `folio worker` hand this list to src/worker/. A new kind is a module in ./kinds/ added here.
 */
export const JOB_KINDS: readonly JobKind[] = [
  meetingNotesJobKind,
  fileImportJobKind,
  asyncTaskJobKind,
  applyTemplateJobKind,
  webhookDeliveryJobKind,
  webhookHandshakeJobKind,
];

import type { JobKind } from '../jobKind.js';
import { FILE_IMPORT_JOB, importExternalFile, type FileImportPayload } from '../../commands/fileUploads/importExternalFile.js';

/** `external_url` file uploads: the download into a blob (src/commands/fileUploads/importExternalFile.ts). */
export const fileImportJobKind: JobKind<FileImportPayload> = {
  name: FILE_IMPORT_JOB,
  slots: (config) => config.jobs.fileImportSlots,
  handler: (ctx) => ({ run: (job) => importExternalFile(ctx, job) }),
};

import { FileUploadSweep } from '../schemas/admin.js';
import { presentFileUploadSweep } from '../presenters/adminObjects.js';
import { sweepFileUploads } from '../commands/fileUploads/sweepFileUploads.js';
import { plainOperation, type AnyAdminOperation } from './adminOperation.js';

export const FILE_UPLOAD_OPERATIONS: readonly AnyAdminOperation[] = [
  /**
   * Runs the upload sweeper now (it also runs every minute on every instance): expired uploads are
   * marked and their bytes deleted. For operators and for tests that move the test clock.
   */
  plainOperation('POST', '/file_uploads/sweep', FileUploadSweep, sweepFileUploads, presentFileUploadSweep),
];

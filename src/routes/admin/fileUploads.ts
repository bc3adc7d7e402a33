import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { sweepFileUploads } from '../../commands/fileUploads/sweepFileUploads.js';

/**
 * Runs the upload sweeper now (it also runs every minute on every instance): expired uploads are
 * marked and their bytes deleted. For operators and for tests that move the test clock.
 */
export function registerFileUploadAdminRoutes(app: App, ctx: AppContext): void {
  app.post('/admin/v1/file_uploads/sweep', async () => {
    const result = await sweepFileUploads(ctx);
    return { object: 'file_upload_sweep', expired: result.expired, blobs_deleted: result.blobsDeleted };
  });
}

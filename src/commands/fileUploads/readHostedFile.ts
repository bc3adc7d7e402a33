import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { findFileUpload, storedBlobsOf } from '../../storage/repositories/fileUploads.js';
import { uploadStatusNow } from './fileUploadView.js';

export interface HostedFile {
  upload: FileUploadRow;
  length: number;
  /** The file's bytes: its parts, one after another, each streamed from the file store. */
  open(): Readable;
}

/**
 * An uploaded file's bytes, for its signed link (the link was checked by the caller). A file
 * whose upload is gone or was never completed is absent. Multi-part files are read part after
 * part, never concatenated in storage.
 */
export async function readHostedFile(ctx: AppContext, uploadId: string): Promise<HostedFile | null> {
  const upload = await findFileUpload(ctx.store.db, uploadId);
  // An attached upload has no expiry, so it stays `uploaded`; an expired one is about to be swept.
  if (!upload || uploadStatusNow(upload, ctx.clock.now()) !== 'uploaded') return null;
  const blobs = await storedBlobsOf(ctx.store.db, upload.id);
  const length = blobs.reduce((sum, b) => sum + (b.size ?? 0), 0);
  return {
    upload,
    length,
    open() {
      const out = new PassThrough();
      (async () => {
        for (const blob of blobs) await pipeline(ctx.files.read(blob.key), out, { end: false });
        out.end();
      })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
      return out;
    },
  };
}

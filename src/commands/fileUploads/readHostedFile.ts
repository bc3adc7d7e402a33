import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { findFileUpload, storedBlobsOf } from '../../storage/repositories/fileUploads.js';
import { uploadStatusNow } from './fileUploadView.js';

export interface HostedFile {
  upload: FileUploadRow;
  length: number;
  /**
   * The file's bytes: its parts, one after another, each streamed from the file store; with a
   * range (inclusive byte offsets, as HTTP writes them), only those bytes.
   */
  open(range?: { start: number; end: number }): Readable;
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
    open(range) {
      const out = new PassThrough();
      const start = range?.start ?? 0;
      const end = range ? range.end + 1 : length;
      (async () => {
        let offset = 0;
        for (const blob of blobs) {
          const size = blob.size ?? 0;
          const from = Math.max(start, offset) - offset;
          const to = Math.min(end, offset + size) - offset;
          // Parts wholly outside the range are not read at all, so a player seeking into a long
          // multi-part recording reads from the part it lands in.
          if (to > from) await pipeline(ctx.files.read(blob.key), slice(from, to), out, { end: false });
          offset += size;
          if (offset >= end) break;
        }
        out.end();
      })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
      return out;
    },
  };
}

/** Passes bytes [from, to) of a stream and drops the rest (file stores read whole parts). */
function slice(from: number, to: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const begin = Math.max(from - seen, 0);
      const finish = Math.min(to - seen, chunk.length);
      seen += chunk.length;
      done(null, finish > begin ? chunk.subarray(begin, finish) : undefined);
    },
  });
}

import type { AppContext } from '../../context.js';
import { UPLOAD_LIFETIME_MS } from '../../domain/files/uploadRules.js';
import { blobsToSweep, deleteBlobRows, expireFileUploads } from '../../storage/repositories/fileUploads.js';

const BATCH = 500;

export interface SweepResult {
  expired: number;
  blobsDeleted: number;
}

/**
 * Marks uploads past their expiry `expired` and deletes the bytes nothing will read: blobs of
 * expired, failed or deleted uploads, and writes that began more than an upload's lifetime ago
 * and never finished (their process died; a live send cannot take that long, as the upload it
 * writes to expires first). Safe to run on every instance at once: each step is idempotent, and
 * deleting bytes twice is not an error. The bytes go before their rows, so a crash in between
 * leaves rows the next sweep finds again.
 */
export async function sweepFileUploads(ctx: AppContext): Promise<SweepResult> {
  const now = ctx.clock.now();
  const expired = await expireFileUploads(ctx.store.db, now.toISOString(), now.toISOString());
  const staleBefore = new Date(now.getTime() - UPLOAD_LIFETIME_MS).toISOString();
  let blobsDeleted = 0;
  for (;;) {
    const blobs = await blobsToSweep(ctx.store.db, staleBefore, BATCH);
    if (blobs.length === 0) break;
    const keys = blobs.map((b) => b.key);
    await ctx.files.delete(keys);
    await deleteBlobRows(ctx.store.db, keys);
    blobsDeleted += keys.length;
    if (blobs.length < BATCH) break;
  }
  return { expired, blobsDeleted };
}

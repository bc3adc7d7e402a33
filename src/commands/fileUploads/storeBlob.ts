import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { deleteBlobRows, insertBlob } from '../../storage/repositories/fileUploads.js';

export interface WrittenBlob {
  key: string;
  size: number;
}

/**
 * Writes an upload's bytes as a new blob: its row first (`writing`), so a process that dies
 * mid-write leaves something the sweeper finds, then the bytes. A failed write deletes both
 * before the error goes on. The caller makes the blob a part of its upload (storeBlob in the
 * repository) or hands it to `discardBlob`.
 */
export async function writeBlob(ctx: AppContext, uploadId: string, source: Readable): Promise<WrittenBlob> {
  const key = `uploads/${uploadId}/${randomBytes(12).toString('hex')}`;
  await insertBlob(ctx.store.db, key, uploadId, ctx.clock.now().toISOString());
  try {
    return { key, size: await ctx.files.write(key, source) };
  } catch (error) {
    await discardBlob(ctx, key);
    throw error;
  }
}

export async function discardBlob(ctx: AppContext, key: string): Promise<void> {
  await ctx.files.delete([key]);
  await deleteBlobRows(ctx.store.db, [key]);
}

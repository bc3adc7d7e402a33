import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { fileUploadEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { FileUploadView } from '../../domain/views.js';
import { validationError } from '../../errors/registry.js';
import { normalizeId } from '../../ids/ids.js';
import { storedBlobsOf, transitionFileUpload } from '../../storage/repositories/fileUploads.js';
import { fileUploadView, loadOwnUpload, uploadLimitOf, uploadStatusNow } from './fileUploadView.js';

/**
 * POST /v1/file_uploads/{id}/complete: a multi-part upload whose every part (1 to
 * `number_of_parts`) was sent becomes `uploaded`, its length the parts' sum. Parts may have
 * arrived in any order or in parallel; of two completes racing, one wins and the other finds the
 * upload no longer pending.
 */
export async function completeFileUpload(ctx: AppContext, caller: Caller, rawId: string): Promise<FileUploadView> {
  const limit = await uploadLimitOf(ctx, caller);
  return ctx.store.transaction(async (trx) => {
    const now = ctx.clock.now();
    const upload = await loadOwnUpload(trx, caller, normalizeId(rawId), rawId);
    if (upload.mode !== 'multi_part')
      throw validationError(`File upload ${upload.id} is ${upload.mode.replace('_', '-')}: only a multi-part upload takes \`complete\`.`);
    const status = uploadStatusNow(upload, now);
    if (status !== 'pending') throw validationError(`File upload ${upload.id} is ${status}: only a pending upload takes \`complete\`.`);
    const blobs = await storedBlobsOf(trx, upload.id);
    const expected = upload.number_of_parts ?? 0;
    if (blobs.length < expected) {
      const have = new Set(blobs.map((b) => b.part_number));
      const missing = Array.from({ length: expected }, (_, i) => i + 1).filter((n) => !have.has(n));
      const shown = missing.length > 10 ? `${missing.slice(0, 10).join(', ')}, …` : missing.join(', ');
      throw validationError(`File upload ${upload.id} has ${blobs.length} of its ${expected} parts: send part ${shown} before \`complete\`.`);
    }
    const length = blobs.reduce((sum, b) => sum + (b.size ?? 0), 0);
    // Parts sent in parallel each checked the room left before the others landed.
    if (length > limit) throw validationError(`File upload ${upload.id} holds ${length} bytes, more than the workspace's limit of ${limit} bytes.`);
    const changes = { status: 'uploaded' as const, content_length: length, last_edited_time: now.toISOString() };
    if (!(await transitionFileUpload(trx, upload.id, 'pending', changes))) {
      throw validationError(`File upload ${upload.id} is no longer pending: only a pending upload takes \`complete\`.`);
    }
    await recordEvent(ctx, trx, caller, changes.last_edited_time, ...fileUploadEvent(upload.id, 'completed'));
    return fileUploadView(trx, { ...upload, ...changes }, now);
  });
}

import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { fileUploadEvent, uploadSource } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { FileUploadView } from '../../domain/views.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { validationError } from '../../errors/registry.js';
import { invalidField, missingField } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { checkFilename, normalizeContentType, settleContentType, tooLarge, typeOfFilename } from '../../domain/files/uploadRules.js';
import { PART_MAX_BYTES, PART_MIN_BYTES, SINGLE_PART_MAX_BYTES } from '../../schemas/fileUploads.js';
import { findFileUpload, storedBlobsOf, storeBlob, transitionFileUpload, updateFileUpload } from '../../storage/repositories/fileUploads.js';
import { checkedBytes } from './byteChecks.js';
import { discardBlob, writeBlob, type WrittenBlob } from './storeBlob.js';
import { fileUploadView, loadOwnUpload, uploadLimitOf, uploadStatusNow } from './fileUploadView.js';

/** One part of a multipart/form-data body, as the route reads it. */
export type FormPart =
  { kind: 'file'; field: string; filename: string | null; contentType: string | null; stream: Readable } | { kind: 'field'; field: string; value: string };

interface SentFile {
  blob: WrittenBlob;
  sniffed: string | null;
  filename: string | null;
  contentType: string | null;
}

/**
 * POST /v1/file_uploads/{id}/send: the only multipart/form-data endpoint (FACTS.md §2). Fields
 * `file` and, for multi-part uploads, `part_number`. The official SDK sends `file` first, so the
 * part number is known only after the bytes: they are streamed to a new blob under the limits
 * that hold for any part (and what is left of the workspace's per-file limit), and the part's own
 * rules are checked once the whole form is read. Whatever is refused after the bytes were
 * written is deleted before the answer.
 */
export async function sendFileUpload(ctx: AppContext, caller: Caller, rawId: string, parts: AsyncIterable<FormPart>): Promise<FileUploadView> {
  const db = ctx.store.db;
  const upload = await loadOwnUpload(db, caller, normalizeId(rawId), rawId);
  checkSendable(upload, ctx.clock.now());
  const limit = await uploadLimitOf(ctx, caller);
  const storedBefore = upload.mode === 'multi_part' ? (await storedBlobsOf(db, upload.id)).reduce((sum, b) => sum + (b.size ?? 0), 0) : 0;
  const room = limit - storedBefore;
  const partMax = upload.mode === 'multi_part' ? PART_MAX_BYTES : SINGLE_PART_MAX_BYTES;
  const maxBytes = Math.min(partMax, room);
  const why =
    maxBytes === partMax
      ? upload.mode === 'multi_part'
        ? 'the most a part may hold'
        : 'the most a single-part upload may hold'
      : "the workspace's file size limit";

  let sent: SentFile | null = null;
  let partNumberRaw: string | null = null;
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (part.field !== 'part_number') throw invalidField([part.field], 'should be not present: the form takes `file` and `part_number`', part.value);
        partNumberRaw = part.value;
        continue;
      }
      if (part.field !== 'file') throw invalidField([part.field], 'should be not present: the form takes `file` and `part_number`', part.filename);
      if (sent) throw invalidField(['file'], 'should be one file', 'several');
      let sniffed: string | null = null;
      const source = checkedBytes(part.stream, { maxBytes, tooLarge: () => tooLarge(maxBytes, why), sniffed: (type) => (sniffed = type) });
      const blob = await writeBlob(ctx, upload.id, source);
      sent = { blob, sniffed, filename: part.filename, contentType: part.contentType };
    }
    if (!sent) throw missingField(['file']);
    return await recordPart(ctx, upload, sent, partNumberRaw);
  } catch (error) {
    if (sent) await discardBlob(ctx, sent.blob.key);
    throw error;
  }
}

function checkSendable(upload: FileUploadRow, now: Date): void {
  if (upload.mode === 'external_url') throw validationError(`File upload ${upload.id} imports from an external URL: it takes no \`send\`.`);
  const status = uploadStatusNow(upload, now);
  if (status !== 'pending') throw validationError(`File upload ${upload.id} is ${status}: only a pending upload takes \`send\`.`);
}

function parsePartNumber(upload: FileUploadRow, raw: string | null): number {
  const parts = upload.number_of_parts ?? 1;
  if (upload.mode === 'single_part') {
    if (raw !== null && raw !== '1') throw invalidField(['part_number'], 'should be not present for a single-part upload', raw);
    return 1;
  }
  if (raw === null) throw missingField(['part_number']);
  const number = /^\d{1,4}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(number >= 1 && number <= parts)) throw invalidField(['part_number'], `should be an integer from 1 to ${parts} (the upload's number_of_parts)`, raw);
  return number;
}

async function recordPart(ctx: AppContext, upload: FileUploadRow, sent: SentFile, partNumberRaw: string | null): Promise<FileUploadView> {
  const partNumber = parsePartNumber(upload, partNumberRaw);
  const last = partNumber === (upload.number_of_parts ?? 1);
  const { size } = sent.blob;
  if (upload.mode === 'multi_part' && !last && size < PART_MIN_BYTES) {
    throw invalidField(['file'], `should be at least ${PART_MIN_BYTES} bytes (every part but the last)`, `${size} bytes`);
  }
  return ctx.store.transaction(async (trx) => {
    const now = ctx.clock.now();
    const at = now.toISOString();
    // Read again inside the transaction: a complete or another send may have landed meanwhile.
    const current = (await findFileUpload(trx, upload.id)) ?? upload;
    checkSendable(current, now);
    if ((await storedBlobsOf(trx, upload.id)).some((b) => b.part_number === partNumber)) {
      throw invalidField(['part_number'], 'should be a part not sent before', partNumberRaw ?? '1');
    }
    // Two sends of one part racing past the check above: the unique key refuses the second.
    await storeBlob(trx, sent.blob.key, partNumber, size);
    const changes: Partial<FileUploadRow> = { last_edited_time: at };
    if (partNumber === 1) {
      const declared = current.content_type ?? typeFromPart(sent);
      changes.content_type = settleContentType(declared, sent.sniffed);
      if (!current.filename && sent.filename) changes.filename = safeFilename(sent.filename);
    }
    if (upload.mode === 'single_part') {
      if (!(await transitionFileUpload(trx, upload.id, 'pending', { ...changes, status: 'uploaded', content_length: size }))) {
        throw validationError(`File upload ${upload.id} is no longer pending: only a pending upload takes \`send\`.`);
      }
      await recordEvent(ctx, trx, uploadSource(upload), at, ...fileUploadEvent(upload.id, 'completed'));
    } else {
      await updateFileUpload(trx, upload.id, changes);
    }
    return fileUploadView(
      trx,
      { ...current, ...changes, ...(upload.mode === 'single_part' ? { status: 'uploaded' as const, content_length: size } : {}) },
      now,
    );
  });
}

/** The form part's own type, unless generic (the SDK sends a Blob's, often empty), else its name's. */
function typeFromPart(sent: SentFile): string | null {
  const own = sent.contentType ? normalizeContentType(sent.contentType) : null;
  if (own && own !== 'application/octet-stream') return own;
  return sent.filename ? typeOfFilename(sent.filename) : null;
}

/** A name the form gave that breaks the filename rules is not kept, rather than failing the send. */
function safeFilename(name: string): string | null {
  try {
    return checkFilename(name);
  } catch {
    return null;
  }
}

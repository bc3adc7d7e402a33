import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { fileUploadEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CreateFileUploadInput } from '../../schemas/fileUploads.js';
import type { FileUploadView } from '../../domain/views.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { invalidField, missingField } from '../../errors/validationFailure.js';
import { checkFilename, declaredContentType, UPLOAD_LIFETIME_MS } from '../../domain/files/uploadRules.js';
import { insertFileUpload } from '../../storage/repositories/fileUploads.js';
import { fileUploadView, uploadLimitOf } from './fileUploadView.js';
import { checkExternalUrl, enqueueImport } from './importExternalFile.js';

/**
 * POST /v1/file_uploads (FACTS.md §8 "File-upload modes"). Each mode's required and refused
 * fields are checked here, where the message can name the field; an `external_url` upload is
 * probed before it is created (scheme, address, Content-Type, size) and then imported by a job
 * enqueued with it.
 */
export async function createFileUpload(ctx: AppContext, caller: Caller, body: CreateFileUploadInput): Promise<FileUploadView> {
  const mode = body.mode ?? 'single_part';
  const filename = body.filename === undefined ? null : checkFilename(body.filename);
  if (mode !== 'multi_part' && body.number_of_parts !== undefined) {
    throw invalidField(['number_of_parts'], 'should be not present unless `mode` is `multi_part`', body.number_of_parts);
  }
  if (mode !== 'external_url' && body.external_url !== undefined) {
    throw invalidField(['external_url'], 'should be not present unless `mode` is `external_url`', body.external_url);
  }
  let contentType = declaredContentType(filename, body.content_type);
  const limit = await uploadLimitOf(ctx, caller);
  let probe: Awaited<ReturnType<typeof checkExternalUrl>> | null = null;
  if (mode === 'multi_part') {
    if (body.number_of_parts === undefined) throw missingField(['number_of_parts']);
    if (filename === null) throw missingField(['filename']);
    if (!contentType) throw invalidField(['filename'], 'should be a file name with an extension, or `content_type` given', filename);
  } else if (mode === 'external_url') {
    if (body.external_url === undefined) throw missingField(['external_url']);
    if (filename === null) throw missingField(['filename']);
    probe = await checkExternalUrl(ctx, body.external_url, limit);
    contentType ??= probe.contentType;
  }

  const now = ctx.clock.now();
  const at = now.toISOString();
  const row: FileUploadRow = {
    id: ctx.newId(),
    workspace_id: caller.workspaceId,
    connection_id: caller.connectionId,
    created_by: caller.botId,
    created_time: at,
    last_edited_time: at,
    mode,
    status: 'pending',
    filename,
    content_type: contentType,
    content_length: null,
    number_of_parts: mode === 'multi_part' ? body.number_of_parts! : null,
    expiry_time: new Date(now.getTime() + UPLOAD_LIFETIME_MS).toISOString(),
    external_url: mode === 'external_url' ? probe!.url.toString() : null,
    import_result: null,
  };
  // The import is a job enqueued with the upload: a restart resumes it (src/jobs/kinds/fileImport.ts).
  await ctx.store.transaction(async (trx) => {
    await insertFileUpload(trx, row);
    await recordEvent(ctx, trx, caller, at, ...fileUploadEvent(row.id, 'created'));
    if (probe) await enqueueImport(ctx, trx, row, probe.url, limit);
  });
  if (probe) ctx.jobs.wake();
  return fileUploadView(ctx.store.db, row, now);
}

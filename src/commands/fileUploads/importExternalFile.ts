import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { fileUploadEvent, uploadSource as sourceOf } from '../events/objectEvents.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { ApiError } from '../../errors/registry.js';
import { invalidField, ValidationFailure } from '../../errors/validationFailure.js';
import { normalizeContentType, settleContentType, tooLarge } from '../../domain/files/uploadRules.js';
import { checkUrl, fetchUrl, FetchFailed, probeUrl, TooLarge, UrlRefused, type UrlPolicy } from '../../net/publicUrl.js';
import type { Db } from '../../storage/db.js';
import { findFileUpload, storeBlob, transitionFileUpload } from '../../storage/repositories/fileUploads.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { JobLost, type RunningJob } from '../../domain/jobs.js';
import { checkedBytes } from './byteChecks.js';
import { discardBlob, writeBlob } from './storeBlob.js';

const PROBE_TIMEOUT_MS = 10_000;
const FETCH_TIMEOUT_MS = 60_000;

const policyOf = (ctx: AppContext): UrlPolicy => ({ allowPrivate: ctx.config.allowPrivateUrls });

/**
 * What `external_url` is refused for at once (FACTS.md §8): not https, not a public address
 * (unless the operator allows private ones), no Content-Type on HEAD, a Content-Length over the
 * limit. Each is a validation error naming `external_url`.
 */
export async function checkExternalUrl(ctx: AppContext, raw: string, limit: number): Promise<{ url: URL; contentType: string }> {
  const policy = policyOf(ctx);
  let url: URL;
  try {
    url = checkUrl(raw, policy);
  } catch (error) {
    throw refusal(error, raw);
  }
  let probe: Awaited<ReturnType<typeof probeUrl>>;
  try {
    probe = await probeUrl(url, policy, { timeoutMs: PROBE_TIMEOUT_MS });
  } catch (error) {
    throw refusal(error, raw);
  }
  const contentType = probe.contentType ? normalizeContentType(probe.contentType) : null;
  if (!contentType) throw invalidField(['external_url'], 'should be a URL whose HEAD response has a Content-Type', raw);
  if (probe.contentLength !== null && probe.contentLength > limit) throw tooLarge(limit, "the workspace's file size limit", ['external_url']);
  return { url, contentType };
}

/** The network module words its refusals as `should be …`, to follow the field's name. */
function refusal(error: unknown, raw: string): ValidationFailure {
  if (error instanceof UrlRefused || error instanceof FetchFailed) return invalidField(['external_url'], error.message, raw);
  return invalidField(['external_url'], `should be a URL that can be reached (${error instanceof Error ? error.message : String(error)})`, raw);
}

type ImportError = {
  type: 'validation_error' | 'download_error' | 'upload_error' | 'internal_system_error';
  code: string;
  message: string;
  status_code: number | null;
};

/** The job kind an `external_url` upload is imported by (src/jobs/kinds/fileImport.ts). */
export const FILE_IMPORT_JOB = 'file_import';

/** Claims before an import whose worker keeps dying ends the job (the upload stays pending until it expires). */
export const FILE_IMPORT_MAX_ATTEMPTS = 3;

/** What creation fixes for the import: the upload, the checked URL, the workspace's limit then. */
export interface FileImportPayload {
  uploadId: string;
  url: string;
  limit: number;
}

/** Enqueues the import in the caller's transaction (the one creating the upload); ring `ctx.jobs` once it commits. */
export async function enqueueImport(ctx: AppContext, trx: Db, upload: FileUploadRow, url: URL, limit: number): Promise<void> {
  const payload: FileImportPayload = { uploadId: upload.id, url: url.toString(), limit };
  await enqueueJob(trx, {
    id: ctx.newId(),
    kind: FILE_IMPORT_JOB,
    workspaceId: upload.workspace_id,
    subjectId: upload.id,
    payload,
    maxAttempts: FILE_IMPORT_MAX_ATTEMPTS,
    // Jobs run on the system clock, whatever the test clock says (docs/decisions.md).
    at: new Date().toISOString(),
  });
}

/**
 * The import job: the bytes stream into a blob under the limit, then the upload becomes
 * `uploaded`, or `failed` with the reason in `file_import_result`; either end is written fenced on
 * the job's lease (RunningJob.write) and ends the job. A download cut off by a stopped process is
 * not a failure: the job is handed back (or its lease runs out) and the next worker starts the
 * download again; the cut-off attempt's blob is discarded, or left `writing` for the sweeper.
 */
export async function importExternalFile(ctx: AppContext, job: RunningJob<FileImportPayload>): Promise<void> {
  const { uploadId, limit } = job.payload;
  const url = new URL(job.payload.url);
  let blobKey: string | null = null;
  try {
    const upload = await findFileUpload(ctx.store.db, uploadId);
    // Expired, deleted or ended meanwhile: nothing to import.
    if (!upload || upload.status !== 'pending') return;
    const fetched = await fetchUrl(url, policyOf(ctx), { maxBytes: limit, timeoutMs: FETCH_TIMEOUT_MS });
    const stop = () => fetched.body.destroy(job.signal.reason instanceof Error ? job.signal.reason : new Error('import stopped'));
    if (job.signal.aborted) stop();
    job.signal.addEventListener('abort', stop, { once: true });
    let sniffed: string | null = null;
    const source = checkedBytes(fetched.body, {
      maxBytes: limit,
      tooLarge: () => new TooLarge(limit),
      sniffed: (type) => (sniffed = type),
    });
    const blob = await writeBlob(ctx, upload.id, source);
    job.signal.removeEventListener('abort', stop);
    blobKey = blob.key;
    const contentType = settleContentType(upload.content_type, sniffed, ['external_url']);
    const done = await job.write(
      async (trx) => {
        await storeBlob(trx, blob.key, 1, blob.size);
        const at = ctx.clock.now().toISOString();
        const moved = await transitionFileUpload(trx, upload.id, 'pending', {
          status: 'uploaded',
          content_length: blob.size,
          content_type: contentType,
          last_edited_time: at,
          import_result: JSON.stringify({ imported_time: at, type: 'success', success: {} }),
        });
        if (moved) await recordEvent(ctx, trx, sourceOf(upload), at, ...fileUploadEvent(upload.id, 'completed'));
        return moved;
      },
      { finish: true },
    );
    // Expired or deleted meanwhile: the blob is nobody's.
    if (!done) await discardBlob(ctx, blob.key);
  } catch (error) {
    if (blobKey) await discardBlob(ctx, blobKey).catch(() => undefined);
    // Stopped or taken over, not failed: the job says what comes next (handed back, or nothing).
    if (job.signal.aborted || error instanceof JobLost) throw error;
    await job.write(
      async (trx) => {
        const at = ctx.clock.now().toISOString();
        const result = { imported_time: at, type: 'error', error: { ...describe(error, limit), parameter: 'external_url' } };
        const moved = await transitionFileUpload(trx, uploadId, 'pending', { status: 'failed', last_edited_time: at, import_result: JSON.stringify(result) });
        const upload = moved ? await findFileUpload(trx, uploadId) : undefined;
        if (upload) await recordEvent(ctx, trx, sourceOf(upload), at, ...fileUploadEvent(uploadId, 'upload_failed', result));
      },
      { finish: true },
    );
  }
}

function describe(error: unknown, limit: number): ImportError {
  if (error instanceof TooLarge)
    return { type: 'validation_error', code: 'file_too_large', message: `The file is larger than the limit of ${limit} bytes.`, status_code: null };
  if (error instanceof FetchFailed)
    return { type: 'download_error', code: 'bad_status', message: `The URL answered ${error.statusCode ?? 'nothing'}.`, status_code: error.statusCode };
  if (error instanceof UrlRefused) return { type: 'validation_error', code: 'url_refused', message: error.message, status_code: null };
  if (error instanceof ApiError) return { type: 'validation_error', code: 'content_type_mismatch', message: error.message, status_code: null };
  return { type: 'download_error', code: 'download_failed', message: error instanceof Error ? error.message : String(error), status_code: null };
}

import type { AppContext } from '../../context.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { ApiError } from '../../errors/registry.js';
import { invalidField, ValidationFailure } from '../../errors/validationFailure.js';
import { normalizeContentType, settleContentType, tooLarge } from '../../domain/files/uploadRules.js';
import { checkUrl, fetchUrl, FetchFailed, probeUrl, TooLarge, UrlRefused, type UrlPolicy } from '../../net/publicUrl.js';
import { storeBlob, transitionFileUpload } from '../../storage/repositories/fileUploads.js';
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

/**
 * Imports in the background: the bytes stream into a blob under the workspace's limit, then the
 * upload becomes `uploaded`, or `failed` with the reason in `file_import_result`. An import cut off
 * by a stopped process leaves the upload pending until it expires, and the sweeper removes its
 * blob (docs/decisions.md "File uploads").
 */
export function startImport(ctx: AppContext, upload: FileUploadRow, url: URL, limit: number): void {
  runImport(ctx, upload, url, limit).catch((error: unknown) =>
    ctx.log.error({ err: error, upload: upload.id }, 'external file import could not record its end'),
  );
}

async function runImport(ctx: AppContext, upload: FileUploadRow, url: URL, limit: number): Promise<void> {
  let blobKey: string | null = null;
  try {
    const fetched = await fetchUrl(url, policyOf(ctx), { maxBytes: limit, timeoutMs: FETCH_TIMEOUT_MS });
    let sniffed: string | null = null;
    const source = checkedBytes(fetched.body, {
      maxBytes: limit,
      tooLarge: () => new TooLarge(limit),
      sniffed: (type) => (sniffed = type),
    });
    const blob = await writeBlob(ctx, upload.id, source);
    blobKey = blob.key;
    const contentType = settleContentType(upload.content_type, sniffed, ['external_url']);
    const done = await ctx.store.transaction(async (trx) => {
      await storeBlob(trx, blob.key, 1, blob.size);
      const at = ctx.clock.now().toISOString();
      return transitionFileUpload(trx, upload.id, 'pending', {
        status: 'uploaded',
        content_length: blob.size,
        content_type: contentType,
        last_edited_time: at,
        import_result: JSON.stringify({ imported_time: at, type: 'success', success: {} }),
      });
    });
    // Expired or deleted meanwhile: the blob is nobody's.
    if (!done) await discardBlob(ctx, blob.key);
  } catch (error) {
    if (blobKey) await discardBlob(ctx, blobKey).catch(() => undefined);
    const at = ctx.clock.now().toISOString();
    await transitionFileUpload(ctx.store.db, upload.id, 'pending', {
      status: 'failed',
      last_edited_time: at,
      import_result: JSON.stringify({ imported_time: at, type: 'error', error: { ...describe(error, limit), parameter: 'external_url' } }),
    });
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

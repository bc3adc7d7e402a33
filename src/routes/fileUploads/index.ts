import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors/registry.js';
import { ValidationFailure } from '../../errors/validationFailure.js';
import {
  CreateFileUploadBody,
  FileUploadListResponse,
  FileUploadObject,
  FileUploadParams,
  ListFileUploadsQuery,
  PART_MAX_BYTES,
} from '../../schemas/fileUploads.js';
import { presentFileUpload, presentFileUploadList } from '../../presenters/fileUpload.js';
import { createFileUpload } from '../../commands/fileUploads/createFileUpload.js';
import { completeFileUpload } from '../../commands/fileUploads/completeFileUpload.js';
import { listFileUploads, retrieveFileUpload } from '../../commands/fileUploads/readFileUploads.js';
import { sendFileUpload, type FormPart } from '../../commands/fileUploads/sendFileUpload.js';
import { drainRequest } from '../../http/drainRequest.js';

/**
 * File uploads (issue 13; FACTS.md §2, §8). Creating, sending and completing need
 * `insert_content`; reading needs no content capability, as an upload is only ever visible to
 * the connection that created it (docs/decisions.md "File uploads").
 */
export function registerFileUploadRoutes(app: App, ctx: AppContext): void {
  const origin = () => ctx.config.publicUrl;

  app.post(
    '/v1/file_uploads',
    { config: { capability: 'insert_content', response: FileUploadObject }, schema: { body: CreateFileUploadBody } },
    async (request) => presentFileUpload(await createFileUpload(ctx, request.caller!, request.body ?? {}), origin()),
  );

  app.get('/v1/file_uploads', { config: { response: FileUploadListResponse }, schema: { querystring: ListFileUploadsQuery } }, async (request) =>
    presentFileUploadList(await listFileUploads(ctx, request.caller!, request.query), origin()),
  );

  app.get('/v1/file_uploads/:file_upload_id', { config: { response: FileUploadObject }, schema: { params: FileUploadParams } }, async (request) =>
    presentFileUpload(await retrieveFileUpload(ctx, request.caller!, request.params.file_upload_id), origin()),
  );

  app.post(
    '/v1/file_uploads/:file_upload_id/complete',
    { config: { capability: 'insert_content', response: FileUploadObject }, schema: { params: FileUploadParams } },
    async (request) => presentFileUpload(await completeFileUpload(ctx, request.caller!, request.params.file_upload_id), origin()),
  );

  // The one multipart/form-data route, in its own plugin: its parser streams the file part and
  // applies only here, while the plane's hooks (token, version, rate limit, capability) still run.
  app.register(async (uploads: App) => {
    uploads.removeAllContentTypeParsers();
    await uploads.register(multipart, {
      // The command enforces the per-upload byte limit precisely while streaming; busboy's bounds
      // only stop forms that are not this endpoint's at all.
      limits: { fileSize: PART_MAX_BYTES + 1, files: 2, fields: 10, parts: 12, fieldSize: 1000, headerPairs: 100 },
    });
    uploads.addContentTypeParser('*', (_request, _payload, done) =>
      done(new ApiError('invalid_request', 'Unsupported request: the content type must be multipart/form-data.'), undefined),
    );
    uploads.post(
      '/v1/file_uploads/:file_upload_id/send',
      { config: { capability: 'insert_content', response: FileUploadObject }, schema: { params: FileUploadParams } },
      async (request) => {
        try {
          return presentFileUpload(await sendFileUpload(ctx, request.caller!, request.params.file_upload_id, formParts(request)), origin());
        } catch (error) {
          // A client still sending would see its connection reset instead of this answer.
          await drainRequest(request.raw);
          throw error;
        }
      },
    );
  });
}

/**
 * What busboy throws for a form it cannot read (no boundary, a form cut short, a malformed part
 * header): plain errors, which would answer 500. The form is the caller's, so they are the
 * caller's invalid_request (found by test/http/fuzz.test.ts). Errors of ours pass through.
 */
function unreadableForm(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return new ValidationFailure({
      part: 'body',
      path: [],
      rule: { name: 'custom', expectation: 'should be a form of `file` and `part_number` only' },
      actual: { words: 'a form of more parts' },
    });
  const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
  return new ApiError('invalid_request', `Unsupported request: the multipart form could not be read${detail}.`);
}

/** A file part's bytes, with a read failure of the form turned into the caller's error. */
async function* fileBytes(file: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of file) yield chunk as Buffer;
  } catch (error) {
    throw unreadableForm(error);
  }
}

/** The form's parts in the command's terms; busboy's errors become the caller's (unreadableForm). */
async function* formParts(request: FastifyRequest): AsyncGenerator<FormPart> {
  if (!request.isMultipart()) throw new ApiError('invalid_request', 'Unsupported request: the content type must be multipart/form-data.');
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Awaited<ReturnType<typeof parts.next>>['value']>;
    try {
      next = await parts.next();
    } catch (error) {
      throw unreadableForm(error);
    }
    if (next.done) return;
    const part = next.value;
    if (part.type === 'file') {
      yield {
        kind: 'file',
        field: part.fieldname,
        filename: part.filename || null,
        contentType: part.mimetype || null,
        stream: Readable.from(fileBytes(part.file), { objectMode: false }),
      };
    } else {
      yield { kind: 'field', field: part.fieldname, value: String(part.value) };
    }
  }
}

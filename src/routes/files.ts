import { Type } from 'typebox';
import type { App } from '../http/app.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors/registry.js';
import { StrictObject } from '../schemas/common.js';
import { normalizeId } from '../ids/ids.js';
import { readHostedFile } from '../commands/fileUploads/readHostedFile.js';
import { mediaKind } from '../domain/files/uploadRules.js';

const FileParams = StrictObject({ upload_id: Type.String(), filename: Type.String() });
const FileQuery = Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) });

/**
 * `GET /files/{upload id}/{name}?expires&signature`: what a hosted file's link points at
 * (src/domain/files/hostedFiles.ts). The link is the credential, as the service's hosted URLs
 * are, so there is no bearer token; an expired or altered link is refused. Served from any
 * instance: the bytes come from the shared file store.
 */
export function registerFileRoutes(app: App, ctx: AppContext): void {
  app.get('/files/:upload_id/:filename', { schema: { params: FileParams, querystring: FileQuery } }, async (request, reply) => {
    const id = normalizeId(request.params.upload_id);
    const refusal = id ? ctx.fileLinks.refusal(id, request.query.expires, request.query.signature, ctx.clock.now()) : 'This file link is not valid.';
    if (refusal) throw new ApiError('restricted_resource', refusal);
    const file = await readHostedFile(ctx, id!);
    if (!file) throw new ApiError('object_not_found', 'This file no longer exists.');
    const type = file.upload.content_type ?? 'application/octet-stream';
    const name = file.upload.filename ?? 'file';
    // Media and PDFs open in place; anything else downloads, so an uploaded HTML page never runs
    // on Folio's origin. The sandbox policy covers what a browser might still render.
    const inline = mediaKind(type) !== 'other';
    // Byte ranges (RFC 9110 §14), so a player seeks in a recording without reading all of it.
    const range = request.headers['if-range'] === undefined ? parseByteRange(request.headers.range, file.length) : null;
    reply.header('accept-ranges', 'bytes');
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${file.length}`).send();
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.length}`);
    reply
      .header('content-type', type)
      .header('content-length', String(range ? range.end - range.start + 1 : file.length))
      .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .header('cache-control', 'private, max-age=3600');
    return reply.send(file.open(range ?? undefined));
  });
}

/**
 * One `bytes=` range of a file of `length` bytes, as inclusive offsets: `a-b`, `a-` or the suffix
 * `-n`. Null serves the whole file: no header, another unit, several ranges (RFC 9110 allows
 * answering those with the whole representation) or a malformed one; 'unsatisfiable' when it
 * starts past the end (416).
 */
export function parseByteRange(header: string | undefined, length: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(length - suffix, 0), end: length - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
  if (start >= length) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

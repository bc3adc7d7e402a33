import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../http/ids.js';
import { isRecord } from '../../domain/isRecord.js';
import { HOSTED_SCHEME, hostedReference } from '../../domain/files/hostedFiles.js';
import { findFileUploads, markAttached } from '../../storage/repositories/fileUploads.js';
import { uploadStatusNow } from './fileUploadView.js';

interface Reference {
  path: FieldPath;
  id: string;
  raw: unknown;
}

/**
 * Attaching (FACTS.md §8): every `{type: "file_upload", file_upload: {id}}` in a request body —
 * media blocks, block and page icons, covers, files property values — becomes the hosted file it
 * names (`{type: "file", file: {url, expiry_time}}`, src/domain/files/hostedFiles.ts), and the
 * upload is marked attached, in the command's transaction: if the write fails, nothing was
 * attached. Only the calling connection's own uploads, `uploaded` and not expired, can be
 * attached; any other id gets the same answer as one that does not exist. The hosted scheme
 * itself is refused anywhere in a request, so a caller cannot name another's file by its reference.
 *
 * Returns `body` itself when it holds no upload reference (the common case), else a copy.
 */
export async function attachFileUploads<T>(db: Db, caller: Caller, now: Date, body: T): Promise<T> {
  const references: Reference[] = [];
  collect(body, [], references);
  if (references.length === 0) return body;

  const ids = [...new Set(references.map((r) => r.id))];
  const uploads = new Map((await findFileUploads(db, ids)).map((row) => [row.id, row]));
  for (const ref of references) {
    const upload = uploads.get(ref.id);
    const at = [...ref.path, 'file_upload', 'id'];
    if (!upload || upload.connection_id !== caller.connectionId)
      throw invalidField(at, 'should be the ID of a file upload created by this integration', ref.raw);
    const status = uploadStatusNow(upload, now);
    if (status === 'expired') throw invalidField(at, 'should be a file upload that has not expired', ref.raw);
    if (status !== 'uploaded') throw invalidField(at, `should be a file upload with status \`uploaded\` (this one is \`${status}\`)`, ref.raw);
  }
  await markAttached(db, ids);
  return replace(body, (id) => {
    const upload = uploads.get(id)!;
    return hostedReference(upload.id, upload.filename ?? 'file');
  }) as T;
}

function collect(value: unknown, path: FieldPath, into: Reference[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => collect(item, [...path, index], into));
    return;
  }
  if (!isRecord(value)) {
    if (typeof value === 'string' && value.startsWith(HOSTED_SCHEME)) throw invalidField(path, 'should be a URL with an http or https scheme', value);
    return;
  }
  const ref = value.file_upload;
  if (isRecord(ref) && typeof ref.id === 'string' && (value.type === undefined || value.type === 'file_upload')) {
    into.push({ path, id: normalizeId(ref.id) ?? ref.id, raw: ref.id });
    return;
  }
  for (const [key, member] of Object.entries(value)) collect(member, [...path, key], into);
}

/** A copy of `value` with each upload reference replaced by its hosted file (`type: file`). */
function replace(value: unknown, hosted: (id: string) => { url: string; expiry_time: null }): unknown {
  if (Array.isArray(value)) return value.map((item) => replace(item, hosted));
  if (!isRecord(value)) return value;
  const ref = value.file_upload;
  if (isRecord(ref) && typeof ref.id === 'string' && (value.type === undefined || value.type === 'file_upload')) {
    const { file_upload: _ref, type: _type, ...rest } = value;
    return { ...rest, type: 'file', file: hosted(normalizeId(ref.id) ?? ref.id) };
  }
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, replace(member, hosted)]));
}

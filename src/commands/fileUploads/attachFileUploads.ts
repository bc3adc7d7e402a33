import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { FileUploadRow } from '../../storage/schema.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { isRecord } from '../../domain/isRecord.js';
import { HOSTED_SCHEME, hostedReference } from '../../domain/files/hostedFiles.js';
import { findFileUploads, markAttached } from '../../storage/repositories/fileUploads.js';
import { uploadStatusNow } from './fileUploadView.js';
import { pathOf, type BodyPlace } from '../../domain/bodyPlace.js';

export interface Reference {
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
  collect(body, references);
  if (references.length === 0) return body;

  const uploads = await attachUploads(
    db,
    caller,
    now,
    references.map((ref) => ({ ...ref, path: [...ref.path, 'file_upload', 'id'] })),
  );
  return replaceReferences(body, references, (id) => {
    const upload = uploads.get(id)!;
    return hostedReference(upload.id, upload.filename ?? 'file');
  }) as T;
}

/**
 * The checks and the marking of attachFileUploads, for a body that names its uploads in another
 * shape (a comment's `attachments: [{file_upload_id}]`): each `path` is the field naming the id.
 * Returns the uploads by id.
 */
export async function attachUploads(db: Db, caller: Caller, now: Date, references: readonly Reference[]): Promise<Map<string, FileUploadRow>> {
  const ids = [...new Set(references.map((r) => r.id))];
  const uploads = new Map((await findFileUploads(db, ids)).map((row) => [row.id, row]));
  for (const ref of references) {
    const upload = uploads.get(ref.id);
    if (!upload || upload.connection_id !== caller.connectionId)
      throw invalidField(ref.path, 'should be the ID of a file upload created by this integration', ref.raw);
    const status = uploadStatusNow(upload, now);
    if (status === 'expired') throw invalidField(ref.path, 'should be a file upload that has not expired', ref.raw);
    if (status !== 'uploaded') throw invalidField(ref.path, `should be a file upload with status \`uploaded\` (this one is \`${status}\`)`, ref.raw);
  }
  await markAttached(db, ids);
  return uploads;
}

type Place = BodyPlace;

/** An upload reference: `{file_upload: {id}}`, with `type: "file_upload"` or no type. */
function uploadIdOf(value: Record<string, unknown>): string | null {
  const ref = value.file_upload;
  return isRecord(ref) && typeof ref.id === 'string' && (value.type === undefined || value.type === 'file_upload') ? ref.id : null;
}

/**
 * Every upload reference of the body, and a refusal of the hosted scheme anywhere. Walks with a
 * stack of its own, not by recursion: a body may nest thousands of levels (JSON allows it, the
 * schema refuses it only later), and recursion overflowed the call stack there (test/fuzz).
 */
function collect(body: unknown, into: Reference[]): void {
  const stack: Place[] = [{ value: body, key: null, parent: null }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const { value } = place;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: place });
    } else if (isRecord(value)) {
      const id = uploadIdOf(value);
      if (id !== null) {
        into.push({ path: pathOf(place), id: normalizeId(id) ?? id, raw: id });
        continue;
      }
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: place });
    } else if (typeof value === 'string' && value.startsWith(HOSTED_SCHEME)) {
      throw invalidField(pathOf(place), 'should be a URL with an http or https scheme', value);
    }
  }
}

/**
 * A copy of `body` with each reference replaced by its hosted file (`type: file`). Only the
 * containers on the way to a reference are copied (once each); the rest is shared with `body`.
 */
function replaceReferences(body: unknown, references: readonly Reference[], hosted: (id: string) => { url: string; expiry_time: null }): unknown {
  const copies = new Map<object, Record<string | number, unknown>>();
  const copyOf = (container: object) => {
    let copy = copies.get(container);
    if (!copy) {
      copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string | number, unknown>;
      copies.set(container, copy);
    }
    return copy;
  };
  if (references.some((r) => r.path.length === 0)) return hostedInput(body as Record<string, unknown>, hosted);
  const root = copyOf(body as object);
  for (const ref of references) {
    let original = body as Record<string | number, unknown>;
    let copy = root;
    for (const key of ref.path.slice(0, -1)) {
      const child = original[key] as Record<string | number, unknown>;
      copy[key] = copyOf(child);
      copy = copy[key] as Record<string | number, unknown>;
      original = child;
    }
    const last = ref.path[ref.path.length - 1];
    copy[last] = hostedInput(original[last] as Record<string, unknown>, hosted);
  }
  return root;
}

function hostedInput(value: Record<string, unknown>, hosted: (id: string) => { url: string; expiry_time: null }): Record<string, unknown> {
  const id = uploadIdOf(value)!;
  const { file_upload: _ref, type: _type, ...rest } = value;
  return { ...rest, type: 'file', file: hosted(normalizeId(id) ?? id) };
}

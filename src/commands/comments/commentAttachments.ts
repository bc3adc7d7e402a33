import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { FileUploadRow } from '../../storage/schema.js';
import type { CommentAttachmentJson, CreateCommentInput } from '../../schemas/comments.js';
import { normalizeId } from '../../ids/ids.js';
import { hostedReference } from '../../domain/files/hostedFiles.js';
import { mediaKind, typeOfFilename } from '../../domain/files/uploadRules.js';
import { attachUploads } from '../fileUploads/attachFileUploads.js';

/**
 * A comment's `attachments` (FACTS.md §10.2): each names an upload of this connection with status
 * `uploaded`, attached as any other upload is (src/commands/fileUploads/attachFileUploads.ts), and
 * stored as the response shows it, the file as a hosted reference the v1 plane signs on the way out.
 */
export async function commentAttachments(
  db: Db,
  caller: Caller,
  now: Date,
  given: NonNullable<CreateCommentInput['attachments']>,
): Promise<CommentAttachmentJson[]> {
  if (given.length === 0) return [];
  const references = given.map((a, i) => ({ path: ['attachments', i, 'file_upload_id'], id: normalizeId(a.file_upload_id)!, raw: a.file_upload_id }));
  const uploads = await attachUploads(db, caller, now, references);
  return references.map((ref) => {
    const upload = uploads.get(ref.id)!;
    return { category: categoryOf(upload), file: hostedReference(upload.id, upload.filename ?? 'file') };
  });
}

/** The service's five categories; whatever is not a picture, a sound, a film or a PDF is `productivity` (a document, a sheet). */
function categoryOf(upload: FileUploadRow): CommentAttachmentJson['category'] {
  const type = upload.content_type ?? (upload.filename ? typeOfFilename(upload.filename) : null);
  const kind = type ? mediaKind(type) : 'other';
  return kind === 'other' ? 'productivity' : kind;
}

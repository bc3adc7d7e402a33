import mime from 'mime-types';
import { invalidField, ValidationFailure, type FieldPath } from '../../errors/validationFailure.js';
import { FILENAME_MAX_BYTES } from '../../schemas/fileUploads.js';

/**
 * The service's file-upload rules (FACTS.md §8), in one place for the commands and the tests; the
 * size limits are in src/schemas/fileUploads.ts, below the domain, where the request schema bounds
 * `number_of_parts` with them.
 */
/** An upload not attached within this is expired; a hosted file's link is valid this long. */
export const UPLOAD_LIFETIME_MS = 60 * 60 * 1000;

/** What a media block, icon or cover does with a file: the part of the MIME type that matters. */
export type MediaKind = 'image' | 'audio' | 'video' | 'pdf' | 'other';

export function mediaKind(contentType: string): MediaKind {
  if (contentType === 'application/pdf') return 'pdf';
  const top = contentType.split('/')[0];
  return top === 'image' || top === 'audio' || top === 'video' ? top : 'other';
}

/**
 * Audio and video share containers (MP4, Ogg, WebM: an .m4a's bytes are an MP4's), so bytes
 * sniffed as one may be declared as the other.
 */
function compatible(a: MediaKind, b: MediaKind): boolean {
  const family = (kind: MediaKind) => (kind === 'audio' || kind === 'video' ? 'media' : kind);
  return family(a) === family(b);
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** `type/subtype`, lower-cased, parameters dropped; null when it is not a MIME type. */
export function normalizeContentType(raw: string): string | null {
  const bare = raw.split(';')[0].trim().toLowerCase();
  return MIME.test(bare) ? bare : null;
}

/** The content type a file's extension names, when it names one. */
export function typeOfFilename(filename: string): string | null {
  return mime.lookup(filename) || null;
}

/** The service names this one form for .m4a audio (spec, "Media note"); the others are refused, not renamed. */
const M4A_ALIASES = new Set(['audio/m4a', 'audio/x-m4a']);

/**
 * The declared content type, checked against the filename: an unknown form, an .m4a alias and a
 * type of another kind than the extension's are each a validation error naming `content_type`.
 * Without a declared type, the extension's (null when it has none: decided at send, from the bytes).
 */
export function declaredContentType(filename: string | null, contentType: string | undefined, path: FieldPath = ['content_type']): string | null {
  const fromName = filename ? typeOfFilename(filename) : null;
  if (contentType === undefined) return fromName;
  const declared = normalizeContentType(contentType);
  if (!declared) throw invalidField(path, 'should be a MIME type such as `audio/mp4`', contentType);
  if (M4A_ALIASES.has(declared)) throw invalidField(path, 'should be `audio/mp4` for .m4a audio', contentType);
  if (fromName && !compatible(mediaKind(fromName), mediaKind(declared)) && mediaKind(fromName) !== 'other') {
    throw invalidField(path, `should be a type matching the filename's extension (${fromName})`, contentType);
  }
  return declared;
}

/** At most 900 bytes of UTF-8, no path separators or control characters. */
/** The bytes were more than allowed: `body.file should be at most N bytes, instead was larger.` */
export function tooLarge(limit: number, why: string, path: FieldPath = ['file']): ValidationFailure {
  return new ValidationFailure({
    part: 'body',
    path,
    rule: { name: 'custom', expectation: `should be at most ${limit} bytes (${why})` },
    actual: { words: 'larger' },
  });
}

export function checkFilename(filename: string, path: FieldPath = ['filename']): string {
  if (filename.trim() === '') throw invalidField(path, 'should be a non-empty file name', filename);
  if (Buffer.byteLength(filename, 'utf8') > FILENAME_MAX_BYTES) throw invalidField(path, `should be at most ${FILENAME_MAX_BYTES} bytes long`, filename);
  // eslint-disable-next-line no-control-regex
  if (/[/\\\u0000-\u001f\u007f]/.test(filename)) throw invalidField(path, 'should be a file name without path separators or control characters', filename);
  return filename;
}

/**
 * The type the upload is recorded with once its first bytes are seen: the declared one, unless the
 * bytes say otherwise (then refused), or the sniffed one when nothing was declared; a generic
 * `application/octet-stream` declaration yields to what the bytes are.
 */
export function settleContentType(declared: string | null, sniffed: string | null, path: FieldPath = ['file']): string {
  if (!declared || declared === 'application/octet-stream') return sniffed ?? declared ?? 'application/octet-stream';
  if (sniffed && !compatible(mediaKind(declared), mediaKind(sniffed)) && mediaKind(sniffed) !== 'other') {
    throw new ValidationFailure({
      part: 'body',
      path,
      rule: { name: 'custom', expectation: `should be a file of the declared content type ${declared}` },
      actual: { words: `a ${sniffed} file` },
    });
  }
  return declared;
}

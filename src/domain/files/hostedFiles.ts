import { createHmac, timingSafeEqual } from 'node:crypto';
import { UPLOAD_LIFETIME_MS } from './uploadRules.js';

/**
 * Hosted files: an upload attached to a block, an icon, a cover or a files property.
 *
 * The stored value is `{url: "folio-file:<upload id>/<file name>", expiry_time: null}`, the same
 * shape the response has, and is only ever written by attaching (src/commands/fileUploads/
 * attachFileUploads.ts refuses the scheme in requests). Every response that carries one, whatever
 * endpoint, version or fast path built it, has it turned into a signed, expiring link to Folio's
 * own `/files/…` route as the body is sent (src/http/v1Plane.ts): the link depends on the time
 * and on the host the caller used, and the expiry of each link is the request's, like the
 * service's (FACTS.md §8: hosted URLs expire after an hour).
 */
export const HOSTED_SCHEME = 'folio-file:';

/** A file upload reference once attached: what commands hand the domain in its place. */
export interface HostedFileInput {
  type: 'file';
  file: { url: string; expiry_time: null };
}

export function hostedReference(uploadId: string, filename: string): { url: string; expiry_time: null } {
  return { url: `${HOSTED_SCHEME}${uploadId}/${encodeURIComponent(filename)}`, expiry_time: null };
}

/** The file name a hosted reference carries; null when `url` is not one. */
export function hostedFilename(url: string): string | null {
  if (!url.startsWith(HOSTED_SCHEME)) return null;
  const slash = url.indexOf('/', HOSTED_SCHEME.length);
  try {
    return slash < 0 ? '' : decodeURIComponent(url.slice(slash + 1));
  } catch {
    return '';
  }
}

/** The upload a hosted reference names; null when `url` is not one. */
export function hostedUploadId(url: string): string | null {
  if (!url.startsWith(HOSTED_SCHEME)) return null;
  const slash = url.indexOf('/', HOSTED_SCHEME.length);
  return slash < 0 ? url.slice(HOSTED_SCHEME.length) : url.slice(HOSTED_SCHEME.length, slash);
}

/** As JSON writes it: file names are percent-encoded, so the reference holds no quote or backslash. */
const IN_JSON = /"url":"folio-file:([0-9a-f-]{36})\/([^"\\]*)","expiry_time":null/g;

/** Signs and checks the links; the secret is shared by every instance on one store (createCore). */
export class HostedFileLinks {
  constructor(private readonly secret: string) {}

  private signature(uploadId: string, expires: number): Buffer {
    return createHmac('sha256', this.secret).update(`${uploadId}.${expires}`).digest();
  }

  /** The link to `/files/<id>/<name>`, valid for an hour from `now`. */
  link(origin: string, uploadId: string, encodedName: string, now: Date): { url: string; expiry_time: string } {
    const expiresMs = now.getTime() + UPLOAD_LIFETIME_MS;
    const expires = Math.floor(expiresMs / 1000);
    const signature = this.signature(uploadId, expires).toString('base64url');
    return { url: `${origin}/files/${uploadId}/${encodedName}?expires=${expires}&signature=${signature}`, expiry_time: new Date(expires * 1000).toISOString() };
  }

  /** Every hosted reference in a JSON body made a link; a body without one is returned as is. */
  linkAll(json: string, origin: string, now: Date): string {
    if (!json.includes(HOSTED_SCHEME)) return json;
    return json.replace(IN_JSON, (_match, id: string, name: string) => {
      const { url, expiry_time } = this.link(origin, id, name, now);
      return `"url":${JSON.stringify(url)},"expiry_time":"${expiry_time}"`;
    });
  }

  /** Why a link's query does not admit it, or null when it does. */
  refusal(uploadId: string, expiresRaw: unknown, signatureRaw: unknown, now: Date): string | null {
    if (typeof expiresRaw !== 'string' || !/^\d{1,12}$/.test(expiresRaw) || typeof signatureRaw !== 'string') return 'This file link is not valid.';
    const expected = this.signature(uploadId, Number(expiresRaw));
    const given = Buffer.from(signatureRaw, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'This file link is not valid.';
    if (Number(expiresRaw) * 1000 <= now.getTime()) return 'This file link has expired.';
    return null;
  }
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits of randomness; the prefix lets secret scanners recognise a leaked token. */
export function generateToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokensMatch(presented: string, expectedHash: string): boolean {
  return hashesMatch(hashToken(presented), expectedHash);
}

/** Constant-time comparison of two hex digests, for callers that already hashed the token. */
export function hashesMatch(presentedHash: string, expectedHash: string): boolean {
  const a = Buffer.from(presentedHash, 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

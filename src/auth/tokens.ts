import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 bits of randomness; the prefix lets secret scanners recognise a leaked token. */
export function generateToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function tokensMatch(presented: string, expectedHash: string): boolean {
  const a = Buffer.from(hashToken(presented), 'hex');
  const b = Buffer.from(expectedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

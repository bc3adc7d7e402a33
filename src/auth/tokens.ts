import crypto, { createHash, randomBytes } from 'node:crypto';

/** 256 bits of randomness; the prefix lets secret scanners recognise a leaked token. */
export function generateToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

/** Node's one-shot hash (20.12 and later) costs a third of a Hash object, and every request hashes its token. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function hashToken(token: string): string {
  return oneShot ? oneShot('sha256', token, 'hex') : createHash('sha256').update(token).digest('hex');
}

export function tokensMatch(presented: string, expectedHash: string): boolean {
  return hashesMatch(hashToken(presented), expectedHash);
}

/**
 * Constant-time comparison of two hex digests, for callers that already hashed the token: every
 * character is compared whatever the first difference (digests have a fixed, public length).
 * Runs on every request, so it allocates nothing.
 */
export function hashesMatch(presentedHash: string, expectedHash: string): boolean {
  if (presentedHash.length !== expectedHash.length) return false;
  let difference = 0;
  for (let i = 0; i < presentedHash.length; i++) difference |= presentedHash.charCodeAt(i) ^ expectedHash.charCodeAt(i);
  return difference === 0;
}

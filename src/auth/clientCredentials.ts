import { OAuthError } from '../errors/oauthError.js';

const BASIC = /^Basic ([A-Za-z0-9+/=]{1,1024})$/;

/** RFC 6749 §2.3.1: both halves are form-encoded before joining; a client that did not encode them is read as sent. */
function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** The client's id and secret from HTTP Basic authentication (FACTS.md §10.9: the SDK sends `Basic base64(id:secret)`). */
export function clientCredentials(header: string | undefined): { clientId: string; clientSecret: string } {
  const match = header ? BASIC.exec(header.trim()) : null;
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new OAuthError('invalid_client', 'Client authentication failed: send HTTP Basic authentication with client_id:client_secret.');
  return { clientId: formDecoded(decoded.slice(0, colon)), clientSecret: formDecoded(decoded.slice(colon + 1)) };
}

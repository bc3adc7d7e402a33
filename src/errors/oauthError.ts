/**
 * Errors of the OAuth endpoints (FACTS.md §10.9). They are not the API's error codes: RFC 6749
 * §5.2 names them (`invalid_client`, `invalid_grant`, …), and the service answers them in a body
 * of their own, so they are not in the registry (src/errors/registry.ts) and the OAuth plane
 * renders them (src/http/oauthPlane.ts; the body's shape is in docs/decisions.md).
 */
export const OAUTH_ERRORS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  server_error: 500,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;

  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.error = error;
    this.status = OAUTH_ERRORS[error];
  }
}

/**
 * A failure shown to a person in their browser (the consent and sign-in pages): never a redirect,
 * so a bad `client_id` or an unregistered `redirect_uri` cannot send anyone elsewhere (RFC 6749 §4.1.2.1).
 */
export class BrowserPageError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(status: number, title: string, message: string) {
    super(message);
    this.status = status;
    this.title = title;
  }
}

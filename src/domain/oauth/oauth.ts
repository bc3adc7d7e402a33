import type { IntegrationRow, UserRow, WorkspaceRow } from '../../storage/schema.js';

/** How long an authorization code waits for its exchange; the service does not say (FACTS.md §10.9), RFC 6749 §4.1.2 advises at most 10 minutes. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** How long a sign-in link can be opened (once). */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000;
/** How long a browser stays signed in to the consent page. */
export const BROWSER_SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;
/** The session cookie's name; its value is a token, stored only as a hash. */
export const SESSION_COOKIE = 'folio_session';
/** Where the consent page remembers itself while the person goes to open their sign-in link. */
export const RETURN_TO_COOKIE = 'folio_return_to';
/** The only place a sign-in may send the browser back to: a relative path, never another site. */
export const AUTHORIZE_PATH = '/v1/oauth/authorize';
export const SIGN_IN_PATH = '/v1/oauth/sign_in';

export function redirectUrisOf(integration: IntegrationRow): string[] {
  return JSON.parse(integration.redirect_uris) as string[];
}

export function capabilitiesOf(integration: IntegrationRow): string[] {
  return JSON.parse(integration.capabilities) as string[];
}

/**
 * The redirect URI an authorization goes back to: the one asked for if registered (compared as
 * strings, RFC 6749 §3.1.2.3), or the only registered one when none was asked for (FACTS.md
 * §10.9: it may be omitted then). Null when neither holds: the caller shows an error, never redirects.
 */
export function resolveRedirect(registered: readonly string[], asked: string | undefined): { uri: string; given: boolean } | null {
  if (asked !== undefined && asked !== '') return registered.includes(asked) ? { uri: asked, given: true } : null;
  return registered.length === 1 ? { uri: registered[0], given: false } : null;
}

/** The redirect URI with the response's parameters added to its own query (RFC 6749 §4.1.2). */
export function redirectWith(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** A relative authorize URL to return to after signing in; anything else (another site, another path) is dropped. */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4000) return null;
  if (!value.startsWith(`${AUTHORIZE_PATH}?`) && value !== AUTHORIZE_PATH) return null;
  return value;
}

/** The authorize request as the consent page carries it through its form. */
export interface AuthorizeRequest {
  client_id: string;
  redirect_uri?: string;
  response_type?: string;
  owner?: string;
  state?: string;
}

/** What the consent page shows. */
export type ConsentView =
  | { kind: 'sign_in'; integrationName: string; returnTo: string }
  | {
      kind: 'consent';
      integration: IntegrationRow;
      workspace: WorkspaceRow;
      user: UserRow;
      /** Top-level pages and databases the person can share. */
      pages: { id: string; title: string; object: string }[];
      csrfToken: string;
      request: AuthorizeRequest;
    }
  | { kind: 'redirect'; url: string };

/** What a token exchange or refresh gives the integration (FACTS.md §10.9). */
export interface IssuedTokensView {
  accessToken: string;
  refreshToken: string;
  botId: string;
  workspace: WorkspaceRow;
  owner: UserRow;
  /** Whether the connection may read the owner's e-mail (its user-information level). */
  ownerEmail: boolean;
}

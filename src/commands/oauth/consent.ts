import type { AppContext } from '../../context.js';
import { BrowserPageError } from '../../errors/oauthError.js';
import { findIntegrationByClientId } from '../../storage/repositories/integrations.js';
import { listShareableTopLevel } from '../../storage/repositories/oauth.js';
import { AUTHORIZE_PATH, redirectUrisOf, redirectWith, resolveRedirect, type AuthorizeRequest, type ConsentView } from '../../domain/oauth/oauth.js';
import type { IntegrationRow } from '../../storage/schema.js';
import { csrfTokenMatches, signedInPerson } from './signIn.js';
import { issueAuthorizationCode } from './issueCode.js';

/** How many top-level pages the consent page lists. */
const SHAREABLE_LIMIT = 500;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function authorizeRequestOf(input: Record<string, unknown>): AuthorizeRequest {
  return {
    client_id: text(input.client_id) ?? '',
    redirect_uri: text(input.redirect_uri),
    response_type: text(input.response_type),
    owner: text(input.owner),
    state: text(input.state),
  };
}

/**
 * The integration and redirect URI an authorize request names, checked before anything else: until
 * both are known good, every failure is a page of its own, never a redirect (RFC 6749 §4.1.2.1).
 */
async function checkClient(ctx: AppContext, request: AuthorizeRequest): Promise<{ integration: IntegrationRow; redirect: { uri: string; given: boolean } }> {
  const integration = request.client_id ? await findIntegrationByClientId(ctx.store.db, request.client_id) : undefined;
  if (!integration)
    throw new BrowserPageError(400, 'Unknown integration', 'No integration has this client_id. Check the authorization URL the integration sent you to.');
  const redirect = resolveRedirect(redirectUrisOf(integration), request.redirect_uri);
  if (!redirect) {
    throw new BrowserPageError(
      400,
      'Redirect URI not registered',
      request.redirect_uri
        ? `${integration.name} did not register this redirect_uri, so you are not sent there.`
        : `${integration.name} has several redirect URIs and the authorization URL names none.`,
    );
  }
  return { integration, redirect };
}

/** Errors RFC 6749 §4.1.2.1 sends back to a known-good redirect URI. */
function requestError(request: AuthorizeRequest, redirectUri: string): string | null {
  if (request.response_type !== 'code') return redirectWith(redirectUri, { error: 'unsupported_response_type', state: request.state });
  if (request.owner !== undefined && request.owner !== 'user') return redirectWith(redirectUri, { error: 'invalid_request', state: request.state });
  return null;
}

/** GET /v1/oauth/authorize: what the consent page shows (FACTS.md §10.9). */
export async function openConsent(ctx: AppContext, query: Record<string, unknown>, sessionToken: string | undefined): Promise<ConsentView> {
  const request = authorizeRequestOf(query);
  const { integration, redirect } = await checkClient(ctx, request);
  const failed = requestError(request, redirect.uri);
  if (failed) return { kind: 'redirect', url: failed };
  const person = await signedInPerson(ctx, sessionToken);
  if (!person) {
    const params = new URLSearchParams(Object.entries(request).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return { kind: 'sign_in', integrationName: integration.name, returnTo: `${AUTHORIZE_PATH}?${params.toString()}` };
  }
  const pages = await listShareableTopLevel(ctx.store.db, person.workspace.id, SHAREABLE_LIMIT);
  return { kind: 'consent', integration, workspace: person.workspace, user: person.user, pages, csrfToken: person.csrfToken, request };
}

/** POST /v1/oauth/authorize: the person approved or denied; the answer is where to send the browser. */
export async function decideConsent(ctx: AppContext, form: Record<string, unknown>, sessionToken: string | undefined): Promise<string> {
  const request = authorizeRequestOf(form);
  const { integration, redirect } = await checkClient(ctx, request);
  const person = await signedInPerson(ctx, sessionToken);
  if (!person || !sessionToken) throw new BrowserPageError(403, 'Not signed in', 'Your sign-in has ended. Open a new sign-in link, then authorize again.');
  if (!csrfTokenMatches(sessionToken, form.csrf_token)) {
    throw new BrowserPageError(403, 'Request refused', 'This form was not sent from the consent page (its CSRF token does not match). Nothing was shared.');
  }
  const failed = requestError(request, redirect.uri);
  if (failed) return failed;
  if (form.decision !== 'approve') return redirectWith(redirect.uri, { error: 'access_denied', state: request.state });
  const chosen = form.page_ids;
  const pageIds = Array.isArray(chosen) ? chosen.filter((id): id is string => typeof id === 'string') : typeof chosen === 'string' ? [chosen] : [];
  const { code } = await issueAuthorizationCode(ctx, { integration, workspaceId: person.workspace.id, userId: person.user.id, pageIds, redirect });
  return redirectWith(redirect.uri, { code, state: request.state });
}

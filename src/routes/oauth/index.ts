import type { FastifyReply } from 'fastify';
import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { sendHtml } from '../../http/oauthPlane.js';
import { OAuthIntrospectResponse, OAuthRevokeResponse, OAuthTokenResponse } from '../../schemas/oauth.js';
import { exchangeToken, introspectToken, revokeToken } from '../../commands/oauth/tokens.js';
import { decideConsent, openConsent } from '../../commands/oauth/consent.js';
import { signInWithLink } from '../../commands/oauth/signIn.js';
import { presentIntrospection, presentIssuedTokens } from '../../presenters/oauth.js';
import { renderConsentPage, renderSignedInPage } from '../../presenters/oauthPages.js';
import { AUTHORIZE_PATH, RETURN_TO_COOKIE, safeReturnTo, SESSION_COOKIE, SIGN_IN_PATH } from '../../domain/oauth/oauth.js';

/** The token endpoints authenticate the integration, not a connection (FACTS.md §10.9). */
const BASIC_AUTH = { security: [{ basicAuth: [] }] };

/** RFC 6749 §5.1: token responses are never cached. */
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store').header('pragma', 'no-cache');

/** The OAuth install flow (issue 27, FACTS.md §10.9), registered inside the OAuth plane (src/http/oauthPlane.ts). */
export function registerOAuthRoutes(app: App, ctx: AppContext): void {
  const cookieOptions = {
    path: '/v1/oauth',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.publicUrl.startsWith('https:'),
  };

  app.post('/v1/oauth/token', { schema: BASIC_AUTH, config: { response: OAuthTokenResponse } }, async (request, reply) => {
    const view = await exchangeToken(ctx, request.headers.authorization, request.body);
    noStore(reply);
    return presentIssuedTokens(view, request.id);
  });

  app.post('/v1/oauth/introspect', { schema: BASIC_AUTH, config: { response: OAuthIntrospectResponse } }, async (request, reply) => {
    const view = await introspectToken(ctx, request.headers.authorization, request.body);
    noStore(reply);
    return presentIntrospection(view, request.id);
  });

  app.post('/v1/oauth/revoke', { schema: BASIC_AUTH, config: { response: OAuthRevokeResponse } }, async (request) => {
    await revokeToken(ctx, request.headers.authorization, request.body);
    return { request_id: request.id };
  });

  app.get(AUTHORIZE_PATH, { config: { html: true } }, async (request, reply) => {
    const view = await openConsent(ctx, request.query as Record<string, unknown>, request.cookies[SESSION_COOKIE]);
    if (view.kind === 'redirect') return reply.redirect(view.url, 302);
    // Opening the sign-in link in this browser comes back here.
    if (view.kind === 'sign_in') reply.setCookie(RETURN_TO_COOKIE, view.returnTo, { ...cookieOptions, maxAge: 15 * 60 });
    return sendHtml(reply, 200, renderConsentPage(view));
  });

  app.post(AUTHORIZE_PATH, { config: { html: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const url = await decideConsent(ctx, body, request.cookies[SESSION_COOKIE]);
    reply.clearCookie(RETURN_TO_COOKIE, cookieOptions);
    return reply.redirect(url, 302);
  });

  app.get(SIGN_IN_PATH, { config: { html: true } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const { sessionToken, expiresAt, user } = await signInWithLink(ctx, query.token);
    reply.setCookie(SESSION_COOKIE, sessionToken, { ...cookieOptions, expires: expiresAt });
    const returnTo = safeReturnTo(query.return_to) ?? safeReturnTo(request.cookies[RETURN_TO_COOKIE]);
    if (returnTo) {
      reply.clearCookie(RETURN_TO_COOKIE, cookieOptions);
      return reply.redirect(returnTo, 302);
    }
    return sendHtml(reply, 200, renderSignedInPage(user.name ?? user.email ?? user.id));
  });
}

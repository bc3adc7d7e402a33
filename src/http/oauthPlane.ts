import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { AppContext } from '../context.js';
import { BrowserPageError, OAuthError } from '../errors/oauthError.js';
import { renderErrorPage } from '../presenters/oauthPages.js';
import type { RegisterRoutes } from './app.js';
import { acceptJsonBodies, BODY_LIMIT } from './jsonBody.js';
import { toApiError } from './errorHandler.js';

export interface OAuthPlaneOptions {
  ctx: AppContext;
  routes: RegisterRoutes;
}

/**
 * The browser pages answer with headers that keep them to themselves: no script, style only inline,
 * never framed (a framed consent page could be clicked through), and no Referer carrying a sign-in
 * token or a code elsewhere. No `form-action`: Chromium applies it to the redirect after the form,
 * which goes to the integration's own site.
 */
export function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

/** RFC 6749 §5.2's body, inside the service's error envelope: the references disagree on which (docs/decisions.md). */
function sendOAuthError(request: FastifyRequest, reply: FastifyReply, error: OAuthError) {
  if (error.error === 'invalid_client') reply.header('www-authenticate', 'Basic realm="folio"');
  return reply.code(error.status).header('cache-control', 'no-store').send({
    object: 'error',
    status: error.status,
    code: error.error,
    message: error.message,
    error: error.error,
    error_description: error.message,
    request_id: request.id,
  });
}

/**
 * `/v1/oauth`: the install flow (FACTS.md §10.9). Not a bearer-token plane: the token endpoints
 * authenticate the integration with HTTP Basic, the consent page the person with a session cookie.
 * Bodies are JSON (the SDK) or form-encoded (RFC 6749 clients and the consent form); no version
 * header is needed, none is refused.
 */
export const oauthPlane: FastifyPluginAsyncTypebox<OAuthPlaneOptions> = async (plane, { ctx, routes }) => {
  acceptJsonBodies(plane, BODY_LIMIT);
  await plane.register(fastifyFormbody, { bodyLimit: BODY_LIMIT });
  await plane.register(fastifyCookie);

  plane.setErrorHandler((error, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(request, reply, error);
    if (error instanceof BrowserPageError) return sendHtml(reply, error.status, renderErrorPage(error.title, error.message));
    const apiError = toApiError(error);
    if (apiError.status >= 500) ctx.log.error({ err: error, reqId: request.id }, 'request failed');
    if (request.routeOptions.config.html) {
      const title = apiError.status >= 500 ? 'Something went wrong' : 'Request refused';
      return sendHtml(reply, apiError.status, renderErrorPage(title, apiError.status >= 500 ? 'Unexpected error. Please try again.' : apiError.message));
    }
    const oauth = apiError.status >= 500 ? new OAuthError('server_error', 'Unexpected error occurred.') : new OAuthError('invalid_request', apiError.message);
    return sendOAuthError(request, reply, oauth);
  });

  routes(plane, ctx);
};

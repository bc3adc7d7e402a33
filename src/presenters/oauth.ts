import type { Static } from 'typebox';
import type { IssuedTokensView } from '../domain/oauth/oauth.js';
import type { OAuthIntrospectResponse, OAuthTokenResponse } from '../schemas/oauth.js';

/** The token endpoint's answer (FACTS.md §10.9); the owner's e-mail only with `user_info_with_email`, as `users/me` shows it. */
export function presentIssuedTokens(view: IssuedTokensView, requestId: string): Static<typeof OAuthTokenResponse> {
  const { owner } = view;
  const user =
    view.ownerEmail && owner.email !== null
      ? { object: 'user' as const, id: owner.id, type: 'person' as const, person: { email: owner.email }, name: owner.name, avatar_url: owner.avatar_url }
      : { object: 'user' as const, id: owner.id };
  return {
    access_token: view.accessToken,
    token_type: 'bearer',
    refresh_token: view.refreshToken,
    bot_id: view.botId,
    // Workspaces have no icon in Folio.
    workspace_icon: null,
    workspace_name: view.workspace.name,
    workspace_id: view.workspace.id,
    owner: { type: 'user', user },
    // Folio has no template pages to duplicate at install.
    duplicated_template_id: null,
    request_id: requestId,
  };
}

export function presentIntrospection(view: { active: boolean; scope?: string; iat?: number }, requestId: string): Static<typeof OAuthIntrospectResponse> {
  return {
    active: view.active,
    ...(view.scope === undefined ? {} : { scope: view.scope }),
    ...(view.iat === undefined ? {} : { iat: view.iat }),
    request_id: requestId,
  };
}

import type { AppContext } from '../../context.js';
import { generateToken, hashToken } from '../../auth/tokens.js';
import { normalizeId, parseIdParam } from '../../ids/ids.js';
import { invalidFieldBare } from '../../errors/validationFailure.js';
import { findObject } from '../../storage/repositories/objects.js';
import { findUserById } from '../../storage/repositories/users.js';
import { insertOAuthCode } from '../../storage/repositories/oauth.js';
import { findIntegration } from '../../storage/repositories/integrations.js';
import { CODE_LIFETIME_MS, redirectUrisOf, redirectWith, resolveRedirect } from '../../domain/oauth/oauth.js';
import type { IntegrationRow } from '../../storage/schema.js';
import type { OAuthAuthorizationInput } from '../../schemas/admin.js';
import { integrationNotFound } from '../admin/integrations.js';
import { adminNotFound } from '../admin/adminNotFound.js';

/** The most pages one approval shares (the consent page lists up to 500 top-level pages). */
const MAX_PAGES = 500;

export interface GrantRequest {
  integration: IntegrationRow;
  workspaceId: string;
  userId: string;
  /** As given; each must name a page or database of the workspace, not in the trash. */
  pageIds: readonly string[];
  redirect: { uri: string; given: boolean };
}

/**
 * Records a person's approval as a code for the integration to exchange: short-lived and used once
 * (src/storage/repositories/oauth.ts `consumeOAuthCode`). The consent page and the admin plane's
 * headless grant both come here, so they give the same grant.
 */
export async function issueAuthorizationCode(ctx: AppContext, grant: GrantRequest): Promise<{ code: string; expiresAt: string }> {
  // Each is looked up: a forged consent form must not make one request read without end.
  if (grant.pageIds.length > MAX_PAGES) throw invalidFieldBare(['page_ids'], `should have at most ${MAX_PAGES} items`, grant.pageIds.length);
  const pageIds: string[] = [];
  for (const [index, raw] of grant.pageIds.entries()) {
    const id = normalizeId(raw);
    const object = id ? await findObject(ctx.store.db, id) : undefined;
    if (!object || object.workspace_id !== grant.workspaceId || (object.object !== 'page' && object.object !== 'database') || object.in_trash === 1) {
      throw invalidFieldBare(['page_ids', index], "should be a page or database of the user's workspace, not in the trash", raw);
    }
    if (!pageIds.includes(object.id)) pageIds.push(object.id);
  }
  const code = generateToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + CODE_LIFETIME_MS).toISOString();
  await insertOAuthCode(ctx.store.db, {
    code_hash: hashToken(code),
    integration_id: grant.integration.id,
    workspace_id: grant.workspaceId,
    user_id: grant.userId,
    page_ids: JSON.stringify(pageIds),
    redirect_uri: grant.redirect.uri,
    redirect_uri_given: grant.redirect.given ? 1 : 0,
    expires_at: expiresAt,
    used_time: null,
    created_time: now.toISOString(),
  });
  return { code, expiresAt };
}

/** The admin plane's grant (issue 27 item 3): what a person approving on the consent page gives, without a browser. */
export async function authorizeWithoutBrowser(ctx: AppContext, input: OAuthAuthorizationInput) {
  const integrationId = parseIdParam(input.integration_id, 'integration_id');
  const userId = parseIdParam(input.user_id, 'user_id');
  const integration = await findIntegration(ctx.store.db, integrationId);
  if (!integration) throw integrationNotFound(integrationId);
  const user = await findUserById(ctx.store.db, userId);
  if (!user || user.type !== 'person') throw adminNotFound('user', userId);
  const redirect = resolveRedirect(redirectUrisOf(integration), input.redirect_uri);
  if (!redirect) {
    throw invalidFieldBare(
      ['redirect_uri'],
      input.redirect_uri === undefined
        ? 'should be defined when the integration has more than one redirect URI'
        : "should be one of the integration's redirect URIs",
      input.redirect_uri,
    );
  }
  const { code, expiresAt } = await issueAuthorizationCode(ctx, { integration, workspaceId: user.workspace_id, userId, pageIds: input.page_ids, redirect });
  return { code, expiresAt, redirectUrl: redirectWith(redirect.uri, { code, state: input.state }) };
}

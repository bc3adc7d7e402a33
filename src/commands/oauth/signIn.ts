import type { AppContext } from '../../context.js';
import { generateToken, hashToken, hashesMatch } from '../../auth/tokens.js';
import { findUser } from '../../storage/repositories/users.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { consumeSignInLink, findBrowserSession, insertBrowserSession, insertSignInLink } from '../../storage/repositories/oauth.js';
import { BrowserPageError } from '../../errors/oauthError.js';
import { BROWSER_SESSION_LIFETIME_MS, SIGN_IN_LINK_LIFETIME_MS, SIGN_IN_PATH } from '../../domain/oauth/oauth.js';
import type { UserRow, WorkspaceRow } from '../../storage/schema.js';
import { adminNotFound } from '../admin/adminNotFound.js';

/** A one-time link that signs a browser in as this person, for the consent page (issue 27 item 2). */
export async function createSignInLink(ctx: AppContext, workspaceId: string, userId: string) {
  if (!(await findWorkspace(ctx.store.db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  const user = await findUser(ctx.store.db, workspaceId, userId);
  if (!user || user.type !== 'person') throw adminNotFound('user', userId);
  const token = generateToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + SIGN_IN_LINK_LIFETIME_MS).toISOString();
  await insertSignInLink(ctx.store.db, { token_hash: hashToken(token), workspace_id: workspaceId, user_id: userId, expires_at: expiresAt });
  const url = new URL(`${ctx.config.publicUrl}${SIGN_IN_PATH}`);
  url.searchParams.set('token', token);
  return { url: url.toString(), expiresAt, workspaceId, userId };
}

/** Opens a sign-in link once: a new browser session, whose token goes into the cookie and nowhere else. */
export async function signInWithLink(ctx: AppContext, token: unknown): Promise<{ sessionToken: string; expiresAt: Date; user: UserRow }> {
  const now = ctx.clock.now();
  const signedIn = typeof token === 'string' && token !== '' ? await consumeSignInLink(ctx.store.db, hashToken(token), now.toISOString()) : undefined;
  if (!signedIn) throw new BrowserPageError(400, 'Sign-in link not valid', 'This sign-in link was already used, has expired or is not one. Ask for a new one.');
  const user = await findUser(ctx.store.db, signedIn.workspace_id, signedIn.user_id);
  if (!user) throw new BrowserPageError(400, 'Sign-in link not valid', 'The person this link signs in no longer exists.');
  const sessionToken = generateToken();
  const expiresAt = new Date(now.getTime() + BROWSER_SESSION_LIFETIME_MS);
  await insertBrowserSession(ctx.store.db, {
    token_hash: hashToken(sessionToken),
    workspace_id: signedIn.workspace_id,
    user_id: signedIn.user_id,
    created_time: now.toISOString(),
    expires_at: expiresAt.toISOString(),
  });
  return { sessionToken, expiresAt, user };
}

export interface SignedInPerson {
  user: UserRow;
  workspace: WorkspaceRow;
  csrfToken: string;
}

/** The person a session cookie signs in, or null (no cookie, unknown, expired, or the person is gone). */
export async function signedInPerson(ctx: AppContext, sessionToken: string | undefined): Promise<SignedInPerson | null> {
  if (!sessionToken) return null;
  const session = await findBrowserSession(ctx.store.db, hashToken(sessionToken), ctx.clock.now().toISOString());
  if (!session) return null;
  const [user, workspace] = await Promise.all([
    findUser(ctx.store.db, session.workspace_id, session.user_id),
    findWorkspace(ctx.store.db, session.workspace_id),
  ]);
  if (!user || !workspace) return null;
  return { user, workspace, csrfToken: csrfTokenOf(sessionToken) };
}

/**
 * The consent form's CSRF token, derived from the session's secret: a page of another site can
 * make the browser send the cookie but cannot read it, so it cannot know this value (the
 * synchronizer-token pattern without a stored token).
 */
function csrfTokenOf(sessionToken: string): string {
  return hashToken(`csrf:${sessionToken}`);
}

export function csrfTokenMatches(sessionToken: string, presented: unknown): boolean {
  return typeof presented === 'string' && hashesMatch(presented, csrfTokenOf(sessionToken));
}

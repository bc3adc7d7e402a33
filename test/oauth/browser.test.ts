/**
 * Issue 27 acceptance: an OAuth install driven end to end in headless Chromium (Debian's
 * `chromium` through playwright-core): the authorize page, signing in through the operator's
 * link, picking pages, approving, the redirect to a receiver in this test, the token exchange
 * with the SDK's `oauth.token`, SDK calls seeing exactly the pages chosen, refresh, introspect,
 * revoke (then 401). And the refusals: deny, a bad client_id or redirect_uri (a page, never a
 * redirect), a form without its CSRF token, a code used twice.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { expectOAuthError, makeIntegration, makePages, quiet, searchIds, usersMeStatus } from './helpers.js';

type Json = Record<string, any>;

/** The integration's own site: records each callback's query and answers a plain page. */
async function startReceiver(): Promise<{ url: string; calls: URLSearchParams[]; close(): Promise<void> }> {
  const calls: URLSearchParams[] = [];
  const receiver = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    // Chromium also asks for /favicon.ico.
    if (url.pathname === '/callback') calls.push(url.searchParams);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p id="received">installed</p>');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, calls, close: () => new Promise((resolve) => receiver.close(() => resolve())) };
}

describe('OAuth install in a browser', () => {
  const { server, fx } = useServer();
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let integration: Json;
  let pages: Awaited<ReturnType<typeof makePages>>;
  const sdk = () => new Client({ baseUrl: server.url, logger: quiet });
  const creds = () => ({ client_id: integration.client_id as string, client_secret: integration.client_secret as string });
  const authorizeUrl = (params: Record<string, string>) =>
    `${server.url}/v1/oauth/authorize?${new URLSearchParams({ response_type: 'code', owner: 'user', ...params }).toString()}`;

  before(async () => {
    receiver = await startReceiver();
    pages = await makePages(server, fx);
    integration = await makeIntegration(server, [receiver.url]);
    browser = await chromium.launch({ executablePath: process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
    context = await browser.newContext();
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  test('authorize, sign in through the link, pick pages, approve; then the SDK exchanges, refreshes, introspects and revokes', async () => {
    const start = authorizeUrl({ client_id: integration.client_id, redirect_uri: receiver.url, state: 'st-1' });
    await page.goto(start);
    assert.match((await page.textContent('#sign-in-needed')) ?? '', /sign-in link/);

    // The operator's link, opened in the same browser, signs in and comes back to the consent page.
    const link = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users/${fx.user.id}/sign_in_link`);
    await page.goto(link.url);
    assert.ok(page.url().startsWith(`${server.url}/v1/oauth/authorize?`), page.url());
    assert.equal(await page.textContent('#signed-in-as'), 'Ada Lovelace');
    assert.match((await page.textContent('h1')) ?? '', /Acme Sync wants to connect to Test workspace/);
    assert.match((await page.textContent('#capabilities')) ?? '', /Read content/);
    // The link is used once.
    const again = await (await context.newPage()).goto(link.url);
    assert.equal(again?.status(), 400);

    await page.check(`input[name="page_ids"][value="${pages.a}"]`);
    await page.check(`input[name="page_ids"][value="${pages.b}"]`);
    await Promise.all([page.waitForURL(`${receiver.url}?**`), page.click('#approve')]);
    const callback = receiver.calls.at(-1)!;
    assert.equal(callback.get('state'), 'st-1');
    const code = callback.get('code');
    assert.ok(code);

    const tokens = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code, redirect_uri: receiver.url });
    assert.equal(tokens.workspace_id, fx.workspaceId);
    assert.ok(tokens.owner.type === 'user' && tokens.owner.user.id === fx.user.id);
    assert.deepEqual(await searchIds(server, tokens.access_token), [pages.a, pages.b, pages.child].sort());
    // Used once.
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code, redirect_uri: receiver.url }), 400, 'invalid_grant');

    const refreshed = await sdk().oauth.token({ ...creds(), grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    assert.deepEqual(await searchIds(server, refreshed.access_token), [pages.a, pages.b, pages.child].sort());
    assert.equal((await sdk().oauth.introspect({ ...creds(), token: refreshed.access_token })).active, true);
    await sdk().oauth.revoke({ ...creds(), token: refreshed.access_token });
    assert.equal((await sdk().oauth.introspect({ ...creds(), token: refreshed.access_token })).active, false);
    assert.equal(await usersMeStatus(server, refreshed.access_token), 401);
    const notion = new Client({ auth: refreshed.access_token, baseUrl: server.url, logger: quiet });
    await assert.rejects(notion.search({}), (error: Json) => error.status === 401 && error.code === 'unauthorized');
  });

  test('deny sends access_denied with the state back', async () => {
    await page.goto(authorizeUrl({ client_id: integration.client_id, state: 'st-deny' }));
    await Promise.all([page.waitForURL(`${receiver.url}?**`), page.click('#deny')]);
    const callback = receiver.calls.at(-1)!;
    assert.equal(callback.get('error'), 'access_denied');
    assert.equal(callback.get('state'), 'st-deny');
    assert.equal(callback.get('code'), null);
  });

  test('a bad client_id or an unregistered redirect_uri is an error page, never a redirect', async () => {
    const before = receiver.calls.length;
    const unknown = await page.goto(authorizeUrl({ client_id: '00000000-0000-0000-0000-000000000000', redirect_uri: receiver.url }));
    assert.equal(unknown?.status(), 400);
    assert.match((await page.textContent('h1')) ?? '', /Unknown integration/);
    const elsewhere = await page.goto(authorizeUrl({ client_id: integration.client_id, redirect_uri: 'https://evil.example/cb', state: 's' }));
    assert.equal(elsewhere?.status(), 400);
    assert.match((await page.textContent('h1')) ?? '', /Redirect URI not registered/);
    assert.ok(page.url().startsWith(server.url));
    assert.equal(receiver.calls.length, before);
  });

  test('an approval without the consent page’s CSRF token is refused and shares nothing', async () => {
    const before = receiver.calls.length;
    // The browser's cookie goes with it, as a forged cross-site form's would; only the token is missing or wrong.
    for (const csrf of [undefined, 'f'.repeat(64)]) {
      const form: Record<string, string> = { client_id: integration.client_id, response_type: 'code', decision: 'approve', page_ids: pages.c };
      if (csrf) form.csrf_token = csrf;
      const response = await context.request.post(`${server.url}/v1/oauth/authorize`, { form, maxRedirects: 0 });
      assert.equal(response.status(), 403);
      assert.match(await response.text(), /CSRF/);
    }
    assert.equal(receiver.calls.length, before);
  });
});

/**
 * Issue 27 items 1, 3 and 4: public integrations on the admin plane, the headless grant
 * (`POST /admin/v1/oauth/authorizations`) and the token endpoints through the official SDK:
 * exchange, refresh, introspect, revoke, and every refusal FACTS.md §10.9 and RFC 6749 name.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { expectOAuthError, makeIntegration, makePages, quiet, searchIds, usersMeStatus } from './helpers.js';

type Json = Record<string, any>;

describe('OAuth without a browser', () => {
  const { server, fx } = useServer({ env: { FOLIO_TEST_CLOCK: '1' } });
  let pages: Awaited<ReturnType<typeof makePages>>;
  let integration: Json;
  const REDIRECT = 'https://acme.example/callback';
  const sdk = () => new Client({ baseUrl: server.url, logger: quiet });
  const creds = () => ({ client_id: integration.client_id as string, client_secret: integration.client_secret as string });
  const grant = async (body: Json = {}) =>
    admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: fx.user.id, page_ids: [pages.a, pages.b], ...body });

  before(async () => {
    pages = await makePages(server, fx);
    integration = await makeIntegration(server, [REDIRECT]);
  });

  test('an integration is registered server-wide; its secret is shown once and only its hash kept', async () => {
    assert.equal(integration.object, 'integration');
    assert.match(integration.client_secret, /^folio_secret_/);
    assert.deepEqual(integration.redirect_uris, [REDIRECT]);
    const shown = await admin(server, 'GET', `/integrations/${integration.id}`);
    assert.equal(shown.client_secret, undefined);
    assert.equal(shown.client_id, integration.client_id);
    const list = await admin(server, 'GET', '/integrations');
    assert.ok(list.results.some((i: Json) => i.id === integration.id));
    const renamed = await admin(server, 'PATCH', `/integrations/${integration.id}`, { name: 'Acme Sync 2' });
    assert.equal(renamed.name, 'Acme Sync 2');
  });

  test('bad integration input is validation_error naming the field', async () => {
    const bad = await call<Json>(server.url, 'POST', '/admin/v1/integrations', {
      token: server.adminToken,
      version: null,
      body: { name: 'x', redirect_uris: ['not a uri'], capabilities: [] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
    assert.match(bad.body.message, /redirect_uris/);
    const fragment = await call<Json>(server.url, 'POST', '/admin/v1/integrations', {
      token: server.adminToken,
      version: null,
      body: { name: 'x', redirect_uris: ['https://a.example/cb#frag'], capabilities: [] },
    });
    assert.equal(fragment.status, 400);
    assert.match(fragment.body.message, /redirect_uris\[0\]/);
    const badPage = await call<Json>(server.url, 'POST', '/admin/v1/oauth/authorizations', {
      token: server.adminToken,
      version: null,
      body: { integration_id: integration.id, user_id: fx.user.id, page_ids: ['nope'] },
    });
    assert.equal(badPage.status, 400);
    assert.equal(badPage.body.code, 'validation_error');
    assert.match(badPage.body.message, /page_ids\[0\]/);
    const badRedirect = await call<Json>(server.url, 'POST', '/admin/v1/oauth/authorizations', {
      token: server.adminToken,
      version: null,
      body: { integration_id: integration.id, user_id: fx.user.id, page_ids: [], redirect_uri: 'https://evil.example/' },
    });
    assert.equal(badRedirect.status, 400);
    assert.match(badRedirect.body.message, /redirect_uri/);
  });

  test('the authorize page escapes what it shows; after the client is known, a bad response_type redirects with the RFC 6749 error', async () => {
    const odd = await makeIntegration(server, ['https://odd.example/cb?x=1'], '<b>Odd</b> & "co"');
    const query = new URLSearchParams({ client_id: odd.client_id, response_type: 'code', owner: 'user', state: 's' });
    const page = await fetch(`${server.url}/v1/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await page.text();
    assert.ok(html.includes('&lt;b&gt;Odd&lt;/b&gt; &amp; &quot;co&quot;'), html);
    assert.ok(!html.includes('<b>Odd</b>'));
    query.set('response_type', 'token');
    const wrong = await fetch(`${server.url}/v1/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
    assert.equal(wrong.status, 302);
    assert.equal(wrong.headers.get('location'), 'https://odd.example/cb?x=1&error=unsupported_response_type&state=s');
  });

  test('the headless grant, exchanged with the SDK: a public connection acting for the person, seeing exactly the pages chosen', async () => {
    const approved = await grant({ state: 'xyz' });
    const redirect = new URL(approved.redirect_url);
    assert.equal(`${redirect.origin}${redirect.pathname}`, REDIRECT);
    assert.equal(redirect.searchParams.get('code'), approved.code);
    assert.equal(redirect.searchParams.get('state'), 'xyz');

    const tokens = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code: approved.code });
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.workspace_id, fx.workspaceId);
    assert.equal(tokens.workspace_name, 'Test workspace');
    assert.equal(tokens.workspace_icon, null);
    assert.equal(tokens.duplicated_template_id, null);
    assert.equal(tokens.owner.type, 'user');
    assert.ok(tokens.owner.type === 'user' && tokens.owner.user.id === fx.user.id);
    assert.ok(tokens.owner.type === 'user' && 'person' in tokens.owner.user && tokens.owner.user.person.email === 'ada@example.com');
    assert.deepEqual(await searchIds(server, tokens.access_token), [pages.a, pages.b, pages.child].sort());

    const notion = new Client({ auth: tokens.access_token, baseUrl: server.url, logger: quiet });
    const me = await notion.users.me({});
    assert.equal(me.id, tokens.bot_id);
    assert.ok(me.type === 'bot' && me.bot && 'owner' in me.bot && me.bot.owner.type === 'user');
    await assert.rejects(notion.pages.retrieve({ page_id: pages.c }), /Could not find page/);

    const connections = await admin(server, 'GET', `/workspaces/${fx.workspaceId}/connections`);
    const installed = connections.results.find((c: Json) => c.bot_id === tokens.bot_id);
    assert.equal(installed.kind, 'public');
    assert.equal(installed.user_id, fx.user.id);
  });

  test('a code is used once; a wrong secret, an unknown grant and a missing code are refused in the OAuth body', async () => {
    const { code } = await grant();
    await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code });
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code }), 400, 'invalid_grant');
    const next = await grant();
    await expectOAuthError(
      sdk().oauth.token({ client_id: integration.client_id, client_secret: 'wrong', grant_type: 'authorization_code', code: next.code }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      sdk().oauth.token({ client_id: 'nobody', client_secret: 'x', grant_type: 'authorization_code', code: next.code }),
      401,
      'invalid_client',
    );
    const unknownGrant = await call<Json>(server.url, 'POST', '/v1/oauth/token', {
      headers: { authorization: `Basic ${Buffer.from(`${integration.client_id}:${integration.client_secret}`).toString('base64')}` },
      body: { grant_type: 'password', username: 'a' },
    });
    assert.equal(unknownGrant.status, 400);
    assert.equal(unknownGrant.body.error, 'unsupported_grant_type');
    assert.equal(typeof unknownGrant.body.request_id, 'string');
    const noAuth = await call<Json>(server.url, 'POST', '/v1/oauth/token', { body: { grant_type: 'authorization_code', code: next.code } });
    assert.equal(noAuth.status, 401);
    assert.equal(noAuth.body.error, 'invalid_client');
    // The code survived the refusals above: none of them consumed it.
    const form = await fetch(`${server.url}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${integration.client_id}:${integration.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'authorization_code' }).toString(),
    });
    assert.equal(form.status, 400);
    assert.equal(((await form.json()) as Json).error, 'invalid_request');
    const tokens = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code: next.code });
    assert.equal(await usersMeStatus(server, tokens.access_token), 200);
  });

  test('a code expires after ten minutes', async () => {
    const { code } = await grant();
    const now = await admin(server, 'GET', '/clock');
    await admin(server, 'POST', '/clock', { now: new Date(Date.parse(now.now) + 11 * 60 * 1000).toISOString() });
    try {
      await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code }), 400, 'invalid_grant');
    } finally {
      await admin(server, 'POST', '/clock', { now: null });
    }
  });

  test('redirect_uri rules (FACTS.md §10.9): required and equal when the authorization named one, refused when it did not', async () => {
    const two = await makeIntegration(server, ['https://two.example/a', 'https://two.example/b'], 'Two');
    const twoCreds = { client_id: two.client_id, client_secret: two.client_secret };
    const named = await admin(server, 'POST', '/oauth/authorizations', {
      integration_id: two.id,
      user_id: fx.user.id,
      page_ids: [],
      redirect_uri: 'https://two.example/b',
    });
    await expectOAuthError(sdk().oauth.token({ ...twoCreds, grant_type: 'authorization_code', code: named.code }), 400, 'invalid_request');
    await expectOAuthError(
      sdk().oauth.token({ ...twoCreds, grant_type: 'authorization_code', code: named.code, redirect_uri: 'https://two.example/a' }),
      400,
      'invalid_grant',
    );
    const third = await admin(server, 'POST', '/oauth/authorizations', {
      integration_id: two.id,
      user_id: fx.user.id,
      page_ids: [],
      redirect_uri: 'https://two.example/b',
    });
    const ok = await sdk().oauth.token({ ...twoCreds, grant_type: 'authorization_code', code: third.code, redirect_uri: 'https://two.example/b' });
    assert.deepEqual(await searchIds(server, ok.access_token), []);
    // Several redirect URIs and none named: the grant itself is refused.
    const unnamed = await call<Json>(server.url, 'POST', '/admin/v1/oauth/authorizations', {
      token: server.adminToken,
      version: null,
      body: { integration_id: two.id, user_id: fx.user.id, page_ids: [] },
    });
    assert.equal(unnamed.status, 400);
    assert.match(unnamed.body.message, /redirect_uri/);
    // One redirect URI, none named: the token request may not name one.
    const { code } = await grant();
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code, redirect_uri: REDIRECT }), 400, 'invalid_request');
  });

  test('refresh rotates both tokens; introspect reports them; revoke ends the connection at once', async () => {
    const { code } = await grant();
    const first = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code });
    assert.ok(first.refresh_token);
    const looked = await sdk().oauth.introspect({ ...creds(), token: first.access_token });
    assert.equal(looked.active, true);
    assert.match(looked.scope ?? '', /read_content/);
    assert.equal(typeof looked.iat, 'number');

    const second = await sdk().oauth.token({ ...creds(), grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.notEqual(second.access_token, first.access_token);
    assert.equal(second.bot_id, first.bot_id);
    assert.equal(await usersMeStatus(server, first.access_token), 401);
    assert.equal(await usersMeStatus(server, second.access_token), 200);
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'refresh_token', refresh_token: first.refresh_token }), 400, 'invalid_grant');
    assert.equal((await sdk().oauth.introspect({ ...creds(), token: first.access_token })).active, false);
    assert.deepEqual(await searchIds(server, second.access_token), [pages.a, pages.b, pages.child].sort());

    // Another integration cannot look at or revoke this one's tokens.
    const other = await makeIntegration(server, ['https://other.example/cb'], 'Other');
    const otherCreds = { client_id: other.client_id, client_secret: other.client_secret };
    assert.equal((await sdk().oauth.introspect({ ...otherCreds, token: second.access_token })).active, false);
    await sdk().oauth.revoke({ ...otherCreds, token: second.access_token });
    assert.equal(await usersMeStatus(server, second.access_token), 200);

    const revoked = await sdk().oauth.revoke({ ...creds(), token: second.access_token });
    assert.equal(typeof revoked.request_id, 'string');
    assert.equal(await usersMeStatus(server, second.access_token), 401);
    assert.equal((await sdk().oauth.introspect({ ...creds(), token: second.access_token })).active, false);
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'refresh_token', refresh_token: second.refresh_token! }), 400, 'invalid_grant');
  });

  test('a rotated secret stops the old one; deleting the integration revokes its connections', async () => {
    const own = await makeIntegration(server, ['https://own.example/cb'], 'Own');
    const { code } = await admin(server, 'POST', '/oauth/authorizations', { integration_id: own.id, user_id: fx.user.id, page_ids: [pages.a] });
    const rotated = await admin(server, 'POST', `/integrations/${own.id}/secret`);
    assert.notEqual(rotated.client_secret, own.client_secret);
    await expectOAuthError(
      sdk().oauth.token({ client_id: own.client_id, client_secret: own.client_secret, grant_type: 'authorization_code', code }),
      401,
      'invalid_client',
    );
    const tokens = await sdk().oauth.token({ client_id: own.client_id, client_secret: rotated.client_secret, grant_type: 'authorization_code', code });
    assert.equal(await usersMeStatus(server, tokens.access_token), 200);
    await admin(server, 'DELETE', `/integrations/${own.id}`);
    assert.equal(await usersMeStatus(server, tokens.access_token), 401);
    const gone = await call<Json>(server.url, 'GET', `/admin/v1/integrations/${own.id}`, { token: server.adminToken, version: null });
    assert.equal(gone.status, 404);
  });

  test('deleting a workspace removes its installs, codes and sign-in links with it', async () => {
    const workspace = await admin(server, 'POST', '/workspaces', { name: 'Short-lived' });
    const person = await admin(server, 'POST', `/workspaces/${workspace.id}/users`, { name: 'Bo', email: 'bo@example.com' });
    await admin(server, 'POST', `/workspaces/${workspace.id}/users/${person.id}/sign_in_link`);
    const installed = await admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: person.id, page_ids: [] });
    await admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: person.id, page_ids: [] });
    const tokens = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code: installed.code });
    assert.equal(await usersMeStatus(server, tokens.access_token), 200);
    await admin(server, 'DELETE', `/workspaces/${workspace.id}`);
    assert.equal(await usersMeStatus(server, tokens.access_token), 401);
    await expectOAuthError(sdk().oauth.token({ ...creds(), grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }), 400, 'invalid_grant');
  });

  // Last: the rows it adds under page A would show in the other tests' searches.
  test('`me` in a people filter is the person who approved the install', async () => {
    const owner = new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });
    const database = (await owner.databases.create({
      parent: { type: 'page_id', page_id: pages.a },
      title: [{ text: { content: 'Tasks' } }],
      initial_data_source: { properties: { Name: { title: {} }, Owner: { people: {} } } },
    })) as Json;
    const dataSourceId = database.data_sources[0].id as string;
    const mine = await owner.pages.create({
      parent: { data_source_id: dataSourceId },
      properties: { Name: { title: [{ text: { content: 'mine' } }] }, Owner: { people: [{ id: fx.user.id }] } },
    });
    await owner.pages.create({ parent: { data_source_id: dataSourceId }, properties: { Name: { title: [{ text: { content: 'nobody' } }] } } });
    const { code } = await grant();
    const tokens = await sdk().oauth.token({ ...creds(), grant_type: 'authorization_code', code });
    const installed = new Client({ auth: tokens.access_token, baseUrl: server.url, logger: quiet });
    const found = await installed.dataSources.query({ data_source_id: dataSourceId, filter: { property: 'Owner', people: { contains: 'me' } } });
    assert.deepEqual(
      found.results.map((r) => r.id),
      [mine.id],
    );
  });
});

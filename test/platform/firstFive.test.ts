/**
 * Issue 11 over HTTP: the root answers, messages help (enums list every value, an unknown block
 * type is named as such, the missing-version message names both headers), users.list hides the
 * admin plane's internal actor, admin pages have a real author, and a page created with no parent
 * is a private workspace-level page of its creator (docs/decisions.md).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestServer, STORE, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { REPO_ROOT } from './childServer.js';
import { ok } from '../content/helpers.js';

type Json = Record<string, any>;

describe('the first five minutes, over HTTP', () => {
  let server: TestServer;
  let fx: Fixture;

  before(async () => {
    server = await startTestServer();
    fx = await makeWorkspace(server);
  });
  after(() => server.close());

  test('GET / names the server, its version and store, and links the health endpoints', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    const res = await call<Json>(server.url, 'GET', '/', { version: null });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { name: 'folio', version: pkg.version, store: STORE, links: { health: '/healthz', ready: '/readyz' } });
    for (const link of Object.values(res.body.links) as string[]) assert.equal((await call(server.url, 'GET', link, { version: null })).status, 200);
  });

  test("a page's url opens in a browser: a page saying how to read it through the API, the same for any id", async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { properties: { title: { title: [{ text: { content: 'Opened' } }] } } });
    assert.ok(page.url.startsWith(`${server.url}/`), page.url);
    const opened = await fetch(page.url);
    assert.equal(opened.status, 200);
    assert.match(opened.headers.get('content-type') ?? '', /text\/html/);
    const html = await opened.text();
    assert.ok(html.includes(`GET /v1/pages/${page.id}`), html);
    assert.doesNotMatch(html, /Opened/, 'nothing of the page without a token');
    const unknown = await fetch(`${server.url}/${'ab'.repeat(16)}`);
    assert.equal(unknown.status, 200, 'existence is not told either');
    const notAnId = await call<Json>(server.url, 'GET', `/${'ab'.repeat(15)}`, { version: null });
    assert.equal(notAnId.body.code, 'invalid_request_url');
  });

  test('an enum violation lists every allowed value', async () => {
    const res = await call<Json>(server.url, 'POST', `/admin/v1/workspaces/${fx.workspaceId}/connections`, {
      token: server.adminToken,
      version: null,
      body: { name: 'x', kind: 'banana', capabilities: [] },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'body failed validation: body.kind should be "internal", "public", or "personal", instead was `"banana"`.');
  });

  test('an unknown block type says so', async () => {
    const page = await makeSharedPage(server, fx);
    const res = await call<Json>(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, { token: fx.token, body: { children: [{ banana: {} }] } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.match(res.body.message, /^body failed validation: body\.children\[0\]\.banana is not a known block type: a block's type should be "paragraph", /);
    assert.doesNotMatch(res.body.message, /should be not present/);
  });

  test('the missing-version message names both accepted headers; Notion-Version is accepted beside Service-Version', async () => {
    const missing = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token, version: null });
    assert.equal(missing.body.code, 'missing_version');
    assert.match(missing.body.message, /^Service-Version or Notion-Version header failed validation/);
    for (const header of ['Service-Version', 'Notion-Version']) {
      const bad = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token, version: null, headers: { [header]: 'latest' } });
      assert.match(bad.body.message, new RegExp(`^${header} header failed validation: ${header} header should be "2021-05-11"`));
      const good = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token, version: null, headers: { [header]: '2026-03-11' } });
      assert.equal(good.status, 200);
    }
  });

  test('users.list does not show the internal actor; admin pages are created by a real user of the workspace', async () => {
    const listed = await call<Json>(server.url, 'GET', '/v1/users', { token: fx.token });
    assert.deepEqual(listed.body.results.map((u: Json) => u.id).sort(), [fx.user.id, fx.connection.bot_id].sort());

    const page = await makeSharedPage(server, fx);
    const read = await call<Json>(server.url, 'GET', `/v1/pages/${page.id}`, { token: fx.token });
    assert.deepEqual(read.body.created_by, { object: 'user', id: fx.user.id });
    assert.equal((await call(server.url, 'GET', `/v1/users/${read.body.created_by.id}`, { token: fx.token })).status, 200);

    const byBot = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'By the bot', created_by: fx.connection.bot_id });
    assert.deepEqual(byBot.created_by, { object: 'user', id: fx.connection.bot_id });
    const stranger = await call<Json>(server.url, 'POST', `/admin/v1/workspaces/${fx.workspaceId}/pages`, {
      token: server.adminToken,
      version: null,
      body: { title: 'x', created_by: randomUUID() },
    });
    assert.equal(stranger.status, 400);
    assert.match(stranger.body.message, /body\.created_by should be a user of this workspace/);
  });

  test('POST /v1/pages with no parent: a workspace-level page, shared with its creator', async () => {
    const res = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { properties: { title: { title: [{ text: { content: 'No parent' } }] } } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.parent, { type: 'workspace', workspace: true });
    assert.equal((await call(server.url, 'GET', `/v1/pages/${res.body.id}`, { token: fx.token })).status, 200);
    const other = await call<Json>(server.url, 'POST', `/admin/v1/workspaces/${fx.workspaceId}/connections`, {
      token: server.adminToken,
      version: null,
      body: { name: 'other', kind: 'internal', capabilities: ['read_content'] },
    });
    assert.equal((await call(server.url, 'GET', `/v1/pages/${res.body.id}`, { token: other.body.token })).status, 404);
  });
});

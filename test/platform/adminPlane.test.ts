/**
 * Issue 11, item 3: the admin plane an operator needs, over HTTP on the configured store: list and
 * read workspaces, users, connections and grants; delete workspaces and persons; rename a
 * connection, change its capabilities and rotate its token (the old one stops at once).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { createStore, type Store } from '../../src/storage/createStore.js';

type Json = Record<string, any>;

describe('admin plane: list, read, change, delete', () => {
  let server: TestServer;
  let store: Store;
  const adminCall = (method: string, path: string, body?: unknown) =>
    call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });

  before(async () => {
    server = await startTestServer();
    store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir: server.dataDir });
  });
  after(async () => {
    await store.close();
    await server.close();
  });

  test('GET /workspaces pages through every workspace; GET /workspaces/:id reads one', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await admin(server, 'POST', '/workspaces', { name: `Listed ${i}` }));
    const seen: Json[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: Json } = await adminCall('GET', `/workspaces?page_size=2${cursor ? `&start_cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200);
      assert.equal(res.body.object, 'list');
      assert.ok(res.body.results.length <= 2);
      assert.equal(res.body.has_more, res.body.next_cursor !== null);
      seen.push(...res.body.results);
      cursor = res.body.next_cursor;
    } while (cursor);
    for (const w of made)
      assert.deepEqual(
        seen.find((s) => s.id === w.id),
        { object: 'workspace', id: w.id, name: w.name, max_file_upload_size_in_bytes: null, meeting_notes_enabled: true, ai_credits: null },
      );

    const one = await adminCall('GET', `/workspaces/${made[0].id}`);
    assert.deepEqual(one.body, {
      object: 'workspace',
      id: made[0].id,
      name: 'Listed 0',
      max_file_upload_size_in_bytes: null,
      meeting_notes_enabled: true,
      ai_credits: null,
    });
    const missing = await adminCall('GET', `/workspaces/${randomUUID()}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'object_not_found');
    assert.doesNotMatch(missing.body.message, /integration/);
    const badCursor = await adminCall('GET', '/workspaces?start_cursor=nope');
    assert.equal(badCursor.status, 400);
    assert.equal(badCursor.body.code, 'validation_error');
  });

  test('GET users, connections, one connection and its grants', async () => {
    const fx = await makeWorkspace(server);
    const page = await makeSharedPage(server, fx);
    const users = await adminCall('GET', `/workspaces/${fx.workspaceId}/users`);
    assert.equal(users.status, 200);
    const ids = users.body.results.map((u: Json) => u.id);
    assert.deepEqual(ids.sort(), [fx.user.id, fx.connection.bot_id].sort(), 'the person and the connection bot, not the internal actor');
    assert.deepEqual(users.body.results.find((u: Json) => u.id === fx.user.id).person, { email: 'ada@example.com', email_verified: true });

    const connections = await adminCall('GET', `/workspaces/${fx.workspaceId}/connections`);
    const { token: _token, ...shown } = fx.connection;
    assert.deepEqual(connections.body.results, [shown]);
    const one = await adminCall('GET', `/connections/${fx.connection.id}`);
    assert.deepEqual(one.body, shown);
    assert.equal('token' in one.body, false);

    const grants = await adminCall('GET', `/connections/${fx.connection.id}/grants`);
    assert.equal(grants.status, 200);
    assert.equal(grants.body.results.length, 1);
    assert.equal(grants.body.results[0].object_id, page.id);
    assert.equal((await adminCall('GET', `/connections/${randomUUID()}/grants`)).status, 404);
  });

  test('PATCH /connections/:id renames (users/me follows) and replaces capabilities (enforced at once)', async () => {
    const fx = await makeWorkspace(server);
    const renamed = await adminCall('PATCH', `/connections/${fx.connection.id}`, { name: 'Renamed' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Renamed');
    const me = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(me.body.name, 'Renamed');

    const page = { parent: { workspace: true }, properties: { title: { title: [{ text: { content: 'x' } }] } } };
    assert.equal((await call(server.url, 'POST', '/v1/pages', { token: fx.token, body: page })).status, 200);
    const narrowed = await adminCall('PATCH', `/connections/${fx.connection.id}`, { capabilities: ['read_content', 'no_user_info'] });
    assert.deepEqual(narrowed.body.capabilities, ['read_content', 'no_user_info']);
    const refused = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: page });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'restricted_resource');

    const empty = await adminCall('PATCH', `/connections/${fx.connection.id}`, {});
    assert.equal(empty.status, 400);
    const kind = await adminCall('PATCH', `/connections/${fx.connection.id}`, { kind: 'public' });
    assert.match(kind.body.message, /body\.kind should be not present/);
    const bogus = await adminCall('PATCH', `/connections/${fx.connection.id}`, { capabilities: ['read_content', 'bogus'] });
    assert.match(bogus.body.message, /body\.capabilities\[1\] should be "read_content", .*, or "user_info_with_email", instead was `"bogus"`/);
  });

  test('POST /connections/:id/token rotates: the new token works, the old one fails on the very next request', async () => {
    const fx = await makeWorkspace(server);
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 200);
    const rotated = await adminCall('POST', `/connections/${fx.connection.id}/token`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.token, /^folio_/);
    assert.notEqual(rotated.body.token, fx.token);
    const old = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(old.status, 401);
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: rotated.body.token })).status, 200);
    // Shown once: reading the connection never returns it.
    assert.equal('token' in (await adminCall('GET', `/connections/${fx.connection.id}`)).body, false);
    assert.equal((await adminCall('POST', `/connections/${randomUUID()}/token`)).status, 404);
  });

  test('the old token also fails on a second instance on the same store', async () => {
    const fx = await makeWorkspace(server);
    const second = await startTestServer({ FOLIO_DATA_DIR: server.dataDir });
    try {
      assert.equal((await call(second.url, 'GET', '/v1/users/me', { token: fx.token })).status, 200);
      await adminCall('POST', `/connections/${fx.connection.id}/token`);
      // SQLite: the other process's commit is seen from the next event-loop turn.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal((await call(second.url, 'GET', '/v1/users/me', { token: fx.token })).status, 401);
    } finally {
      await second.close();
    }
  });

  test('DELETE /workspaces/:id/users/:id: refused while a connection acts for the person, done once it is revoked', async () => {
    const fx = await makeWorkspace(server);
    const path = `/workspaces/${fx.workspaceId}/users/${fx.user.id}`;
    const refused = await adminCall('DELETE', path);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'validation_error');
    assert.match(refused.body.message, /path\.user_id should be a person no connection acts for \(revoke its 1 connection first\)/);
    const bot = await adminCall('DELETE', `/workspaces/${fx.workspaceId}/users/${fx.connection.bot_id}`);
    assert.equal(bot.status, 400);
    await adminCall('DELETE', `/connections/${fx.connection.id}`);
    const deleted = await adminCall('DELETE', path);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { object: 'user', id: fx.user.id, deleted: true });
    assert.equal((await adminCall('DELETE', path)).status, 404);
    const users = await adminCall('GET', `/workspaces/${fx.workspaceId}/users`);
    assert.deepEqual(users.body.results, []);
  });

  test('DELETE /workspaces/:id removes everything in it, from every table, and its tokens stop', async () => {
    const fx = await makeWorkspace(server);
    const other = await makeWorkspace(server);
    const page = await makeSharedPage(server, fx);
    await call(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, {
      token: fx.token,
      body: { children: [{ paragraph: { rich_text: [{ text: { content: 'body' } }] } }] },
    });
    const db = await call<Json>(server.url, 'POST', '/v1/databases', {
      token: fx.token,
      body: {
        parent: { page_id: page.id },
        title: [{ text: { content: 'Tasks' } }],
        initial_data_source: { properties: { Name: { title: {} }, Tags: { multi_select: {} } } },
      },
    });
    assert.equal(db.status, 200, JSON.stringify(db.body));
    const row = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: {
        parent: { data_source_id: db.body.data_sources[0].id },
        properties: { Name: { title: [{ text: { content: 'Row' } }] }, Tags: { multi_select: [{ name: 'a' }] } },
      },
    });
    assert.equal(row.status, 200, JSON.stringify(row.body));
    const otherPage = await makeSharedPage(server, other);

    const deleted = await adminCall('DELETE', `/workspaces/${fx.workspaceId}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { object: 'workspace', id: fx.workspaceId, deleted: true });
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 401);
    assert.equal((await adminCall('GET', `/workspaces/${fx.workspaceId}`)).status, 404);
    assert.equal((await adminCall('DELETE', `/workspaces/${fx.workspaceId}`)).status, 404);

    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(store.db)).rows[0].n);
    const w = fx.workspaceId;
    assert.equal(await count(sql`select count(*) as n from workspaces where id = ${w}`), 0);
    assert.equal(await count(sql`select count(*) as n from users where workspace_id = ${w}`), 0);
    assert.equal(await count(sql`select count(*) as n from connections where workspace_id = ${w}`), 0);
    assert.equal(await count(sql`select count(*) as n from grants where connection_id = ${fx.connection.id}`), 0);
    assert.equal(await count(sql`select count(*) as n from objects where workspace_id = ${w}`), 0);
    assert.equal(await count(sql`select count(*) as n from object_ancestors where descendant_id in (${page.id}, ${row.body.id})`), 0);
    assert.equal(await count(sql`select count(*) as n from property_values where page_id = ${row.body.id}`), 0);
    assert.equal(await count(sql`select count(*) as n from property_value_items where page_id = ${row.body.id}`), 0);
    assert.equal(await count(sql`select count(*) as n from search_index where workspace_id = ${w}`), 0);

    // The other workspace is untouched.
    assert.equal((await call(server.url, 'GET', `/v1/pages/${otherPage.id}`, { token: other.token })).status, 200);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { addConnection, makeWorkspace } from '../helpers/factories.js';

describe('users API', () => {
  const { server, fx } = useServer();

  test('GET /v1/users/me returns the bot with owner, workspace and limits', async () => {
    const res = await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'user');
    assert.equal(res.body.type, 'bot');
    assert.equal(res.body.id, fx.connection.bot_id);
    const bot = res.body.bot as Record<string, any>;
    assert.deepEqual(bot.owner.type, 'user');
    assert.equal(bot.owner.user.id, fx.user.id);
    assert.equal(bot.workspace_id, fx.workspaceId);
    assert.equal(bot.workspace_name, 'Test workspace');
    assert.equal(typeof bot.workspace_limits.max_file_upload_size_in_bytes, 'number');
    assert.equal(res.headers.get('x-request-id')?.length, 36);
  });

  test('internal connections are owned by the workspace', async () => {
    const conn = await addConnection(server, fx.workspaceId, ['read_content']);
    const res = await call(server.url, 'GET', '/v1/users/me', { token: conn.token });
    assert.deepEqual((res.body.bot as Record<string, unknown>).owner, { type: 'workspace', workspace: true });
  });

  test('GET /v1/users paginates with opaque cursors and ends with next_cursor null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = cursor ? `?page_size=1&start_cursor=${encodeURIComponent(cursor)}` : '?page_size=1';
      const res = await call(server.url, 'GET', `/v1/users${qs}`, { token: fx.token });
      assert.equal(res.status, 200);
      assert.equal(res.body.type, 'user');
      assert.deepEqual(res.body.user, {});
      const results = res.body.results as Array<{ id: string }>;
      assert.equal(results.length, 1);
      seen.push(results[0].id);
      cursor = res.body.next_cursor as string | null;
      assert.equal(res.body.has_more, cursor !== null);
      pages++;
    } while (cursor && pages < 20);
    assert.equal(cursor, null);
    assert.equal(new Set(seen).size, seen.length);
    assert.ok(seen.includes(fx.user.id));
  });

  test('e-mail only with user_info_with_email; list refused without user information', async () => {
    const without = await addConnection(server, fx.workspaceId, ['read_content', 'user_info_without_email']);
    const res = await call(server.url, 'GET', `/v1/users/${fx.user.id}`, { token: without.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.person, {});
    const withEmail = await call(server.url, 'GET', `/v1/users/${fx.user.id.replace(/-/g, '')}`, { token: fx.token });
    assert.equal((withEmail.body.person as Record<string, unknown>).email, 'ada@example.com');
    const none = await addConnection(server, fx.workspaceId, ['read_content', 'no_user_info']);
    const list = await call(server.url, 'GET', '/v1/users', { token: none.token });
    assert.equal(list.status, 403);
    assert.equal(list.body.code, 'restricted_resource');
    const me = await call(server.url, 'GET', '/v1/users/me', { token: none.token });
    assert.equal(me.status, 200);
  });

  test('a user of another workspace is not found', async () => {
    const other = await makeWorkspace(server, { name: 'Other' });
    const res = await call(server.url, 'GET', `/v1/users/${other.user.id}`, { token: fx.token });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'object_not_found');
  });

  test('page_size out of range and foreign cursors are validation errors', async () => {
    const big = await call(server.url, 'GET', '/v1/users?page_size=101', { token: fx.token });
    assert.equal(big.status, 400);
    assert.equal(big.body.code, 'validation_error');
    assert.match(String(big.body.message), /query\.page_size/);
    const bad = await call(server.url, 'GET', '/v1/users?start_cursor=not-a-cursor', { token: fx.token });
    assert.equal(bad.status, 400);
    assert.match(String(bad.body.message), /start_cursor/);
  });
});

/**
 * The admin plane (src/routes/admin/index.ts): every endpoint, its admin-token check, the
 * connection rules and grants. Grant effects are read back through the access layer on the same
 * store, since no v1 content route is guaranteed to exist yet.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useServer } from '../helpers/useServer.js';
import { useStore } from '../helpers/useStore.js';
import { call } from '../helpers/http.js';
import { admin } from '../helpers/factories.js';
import { isShared } from '../../src/storage/repositories/grants.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('admin API', () => {
  const { server } = useServer();
  const store = useStore(server);
  let workspaceId: string;
  let personId: string;

  const post = (path: string, body: unknown, token?: string) =>
    call<any>(server.url, 'POST', `/admin/v1${path}`, { token: token === undefined ? server.adminToken : token, version: null, body });

  before(async () => {
    workspaceId = (await admin(server, 'POST', '/workspaces', { name: 'Admin tests' })).id;
    personId = (await admin(server, 'POST', `/workspaces/${workspaceId}/users`, { name: 'Grace Hopper', email: 'grace@example.com' })).id;
  });

  test('every endpoint refuses a missing or wrong admin token with 401', async () => {
    const someId = randomUUID();
    const endpoints: [string, string, unknown][] = [
      ['POST', '/admin/v1/workspaces', { name: 'x' }],
      ['POST', `/admin/v1/workspaces/${workspaceId}/users`, { name: 'x', email: 'x@example.com' }],
      ['POST', `/admin/v1/workspaces/${workspaceId}/connections`, { name: 'x', kind: 'internal', capabilities: [] }],
      ['POST', `/admin/v1/workspaces/${workspaceId}/pages`, { title: 'x' }],
      ['POST', `/admin/v1/connections/${someId}/grants`, { object_id: someId }],
      ['DELETE', `/admin/v1/connections/${someId}/grants/${someId}`, undefined],
      ['DELETE', `/admin/v1/connections/${someId}`, undefined],
    ];
    for (const [method, path, body] of endpoints) {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer wrong-token' },
        { authorization: `Bearer ${server.adminToken}x` },
        { authorization: server.adminToken },
      ]) {
        const res = await call<any>(server.url, method, path, { version: null, body, headers });
        assert.equal(res.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.equal(res.body.code, 'unauthorized');
        assert.equal(res.body.message, 'Admin token is invalid.');
      }
    }
  });

  test('POST /workspaces creates a workspace', async () => {
    const res = await post('/workspaces', { name: 'Fresh' });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'workspace');
    assert.match(res.body.id, UUID);
    assert.equal(res.body.name, 'Fresh');
  });

  test('POST /workspaces/:id/users creates a person; the workspace must exist', async () => {
    const res = await post(`/workspaces/${workspaceId}/users`, { name: 'Alan Turing', email: 'alan@example.com', meeting_notes_enabled: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'user');
    assert.equal(res.body.type, 'person');
    assert.equal(res.body.name, 'Alan Turing');
    assert.deepEqual(res.body.person, { email: 'alan@example.com', email_verified: true });
    // Ids are accepted without dashes.
    const undashed = await post(`/workspaces/${workspaceId.replace(/-/g, '')}/users`, { name: 'B', email: 'b@example.com' });
    assert.equal(undashed.status, 200);
    const missing = await post(`/workspaces/${randomUUID()}/users`, { name: 'x', email: 'x@example.com' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'object_not_found');
    const badEmail = await post(`/workspaces/${workspaceId}/users`, { name: 'x', email: 'not an email' });
    assert.equal(badEmail.status, 400);
    assert.equal(badEmail.body.code, 'validation_error');
    assert.match(badEmail.body.message, /body\.email/);
  });

  describe('POST /workspaces/:id/connections', () => {
    test('an internal connection: token returned once, capabilities echoed, no user', async () => {
      const res = await post(`/workspaces/${workspaceId}/connections`, {
        name: 'Internal',
        kind: 'internal',
        capabilities: ['read_content', 'user_info_with_email'],
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.object, 'connection');
      assert.match(res.body.id, UUID);
      assert.match(res.body.bot_id, UUID);
      assert.equal(res.body.kind, 'internal');
      assert.equal(res.body.user_id, null);
      assert.equal(res.body.workspace_id, workspaceId);
      assert.deepEqual(res.body.capabilities, ['read_content', 'user_info_with_email']);
      assert.match(res.body.token, /^folio_[A-Za-z0-9_-]{43}$/);
      const me = await call<any>(server.url, 'GET', '/v1/users/me', { token: res.body.token });
      assert.equal(me.status, 200);
      assert.equal(me.body.id, res.body.bot_id);
      // Only the hash is stored.
      const row = await store.db.selectFrom('connections').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
      assert.notEqual(row.token_hash, res.body.token);
      assert.ok(!JSON.stringify(row).includes(res.body.token));
    });

    test('without a user information level, the default is user_info_without_email', async () => {
      const res = await post(`/workspaces/${workspaceId}/connections`, { name: 'Default', kind: 'internal', capabilities: ['read_content'] });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.capabilities, ['read_content', 'user_info_without_email']);
    });

    for (const kind of ['public', 'personal']) {
      test(`a ${kind} connection requires user_id, a person of the same workspace`, async () => {
        const ok = await post(`/workspaces/${workspaceId}/connections`, { name: kind, kind, capabilities: ['read_content'], user_id: personId });
        assert.equal(ok.status, 200);
        assert.equal(ok.body.user_id, personId);
        const me = await call<any>(server.url, 'GET', '/v1/users/me', { token: ok.body.token });
        assert.equal(me.body.bot.owner.user.id, personId);

        const missing = await post(`/workspaces/${workspaceId}/connections`, { name: kind, kind, capabilities: [] });
        assert.equal(missing.status, 400);
        assert.equal(missing.body.code, 'validation_error');
        assert.equal(missing.body.message, `body failed validation: body.user_id should be defined for a ${kind} connection, instead was \`undefined\`.`);

        const other = await admin(server, 'POST', '/workspaces', { name: 'Elsewhere' });
        const stranger = await admin(server, 'POST', `/workspaces/${other.id}/users`, { name: 'S', email: 's@example.com' });
        for (const userId of [stranger.id, randomUUID(), ok.body.bot_id]) {
          const bad = await post(`/workspaces/${workspaceId}/connections`, { name: kind, kind, capabilities: [], user_id: userId });
          assert.equal(bad.status, 400, userId);
          assert.equal(bad.body.code, 'validation_error');
          assert.match(bad.body.message, /^body failed validation: body\.user_id should be a person in this workspace/);
        }
        const notUuid = await post(`/workspaces/${workspaceId}/connections`, { name: kind, kind, capabilities: [], user_id: 'nope' });
        assert.equal(notUuid.status, 400);
        assert.equal(notUuid.body.code, 'validation_error');
      });
    }

    test('an internal connection refuses user_id', async () => {
      const res = await post(`/workspaces/${workspaceId}/connections`, { name: 'x', kind: 'internal', capabilities: [], user_id: personId });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_error');
      assert.equal(res.body.message, `body failed validation: body.user_id should be not present for an internal connection, instead was "${personId}".`);
    });

    test('capabilities: unknown names, two user information levels, unknown kinds', async () => {
      const unknown = await post(`/workspaces/${workspaceId}/connections`, { name: 'x', kind: 'internal', capabilities: ['admin'] });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.message, /^body failed validation: body\.capabilities\[0\]/);
      const two = await post(`/workspaces/${workspaceId}/connections`, { name: 'x', kind: 'internal', capabilities: ['no_user_info', 'user_info_with_email'] });
      assert.equal(two.status, 400);
      assert.match(two.body.message, /body\.capabilities should name at most one user information level/);
      const kind = await post(`/workspaces/${workspaceId}/connections`, { name: 'x', kind: 'bot', capabilities: [] });
      assert.equal(kind.status, 400);
      assert.match(kind.body.message, /^body failed validation: body\.kind/);
      const ws = await post(`/workspaces/${randomUUID()}/connections`, { name: 'x', kind: 'internal', capabilities: [] });
      assert.equal(ws.status, 404);
    });
  });

  test('POST /workspaces/:id/pages creates a top-level page', async () => {
    const res = await post(`/workspaces/${workspaceId}/pages`, { title: 'Roadmap' });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'page');
    assert.match(res.body.id, UUID);
    assert.deepEqual(res.body.parent, { type: 'workspace', workspace: true });
    const row = await store.db.selectFrom('objects').selectAll().where('id', '=', res.body.id).executeTakeFirstOrThrow();
    assert.equal(row.title, 'Roadmap');
    assert.equal(row.workspace_id, workspaceId);
    const missing = await post(`/workspaces/${randomUUID()}/pages`, { title: 'x' });
    assert.equal(missing.status, 404);
  });

  test('grants: add, add again, remove, remove again', async () => {
    const conn = await admin(server, 'POST', `/workspaces/${workspaceId}/connections`, { name: 'g', kind: 'internal', capabilities: ['read_content'] });
    const page = await admin(server, 'POST', `/workspaces/${workspaceId}/pages`, { title: 'Shared' });
    assert.equal(await isShared(store.db, conn.id, page.id), false);

    const granted = await post(`/connections/${conn.id}/grants`, { object_id: page.id });
    assert.equal(granted.status, 200);
    assert.deepEqual(granted.body, { object: 'grant', connection_id: conn.id, object_id: page.id });
    assert.equal(await isShared(store.db, conn.id, page.id), true);
    // Granting twice is harmless.
    assert.equal((await post(`/connections/${conn.id}/grants`, { object_id: page.id })).status, 200);

    const removed = await call<any>(server.url, 'DELETE', `/admin/v1/connections/${conn.id}/grants/${page.id}`, { token: server.adminToken, version: null });
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { object: 'grant', connection_id: conn.id, object_id: page.id, deleted: true });
    assert.equal(await isShared(store.db, conn.id, page.id), false);
    const again = await call<any>(server.url, 'DELETE', `/admin/v1/connections/${conn.id}/grants/${page.id}`, { token: server.adminToken, version: null });
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'object_not_found');
  });

  test('grants: unknown connection, unknown object, object of another workspace', async () => {
    const conn = await admin(server, 'POST', `/workspaces/${workspaceId}/connections`, { name: 'g', kind: 'internal', capabilities: ['read_content'] });
    const page = await admin(server, 'POST', `/workspaces/${workspaceId}/pages`, { title: 'Mine' });
    const other = await admin(server, 'POST', '/workspaces', { name: 'Other' });
    const foreign = await admin(server, 'POST', `/workspaces/${other.id}/pages`, { title: 'Theirs' });
    for (const [connectionId, objectId] of [
      [randomUUID(), page.id],
      [conn.id, randomUUID()],
      [conn.id, foreign.id],
    ]) {
      const res = await post(`/connections/${connectionId}/grants`, { object_id: objectId });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 'object_not_found');
    }
    assert.equal(await isShared(store.db, conn.id, foreign.id), false);
    const bad = await post(`/connections/${conn.id}/grants`, { object_id: 'nope' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
    const removeUnknown = await call<any>(server.url, 'DELETE', `/admin/v1/connections/${randomUUID()}/grants/${page.id}`, {
      token: server.adminToken,
      version: null,
    });
    assert.equal(removeUnknown.status, 404);
  });

  test('DELETE /connections/:id revokes the token; a second delete is 404', async () => {
    const conn = await admin(server, 'POST', `/workspaces/${workspaceId}/connections`, { name: 'd', kind: 'internal', capabilities: [] });
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: conn.token })).status, 200);
    const res = await call<any>(server.url, 'DELETE', `/admin/v1/connections/${conn.id}`, { token: server.adminToken, version: null });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { object: 'connection', id: conn.id, deleted: true });
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: conn.token })).status, 401);
    const again = await call<any>(server.url, 'DELETE', `/admin/v1/connections/${conn.id}`, { token: server.adminToken, version: null });
    assert.equal(again.status, 404);
    // A revoked connection can no longer receive grants.
    const page = await admin(server, 'POST', `/workspaces/${workspaceId}/pages`, { title: 'Late' });
    assert.equal((await post(`/connections/${conn.id}/grants`, { object_id: page.id })).status, 404);
  });
});

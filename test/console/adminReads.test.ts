import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';

type Json = Record<string, any>;

/** The admin reads the console is built on, over HTTP (no browser). */
describe('admin: the console reads a workspace tree and its meeting notes', () => {
  const { server, fx } = useServer();

  test('GET /workspaces/{id}/objects pages one level of the tree; /objects/{id} names one', async () => {
    const titles = ['A', 'B', 'C', 'D', 'E'];
    const pages: Json[] = [];
    for (const title of titles) pages.push(await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title }));
    const child = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: pages[0].id }, properties: { title: { title: [{ text: { content: 'A child' } }] } } },
    });
    assert.equal(child.status, 404, 'not shared: the API refuses, the operator still sees everything');
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: pages[0].id });
    const made = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: pages[0].id }, properties: { title: { title: [{ text: { content: 'A child' } }] } } },
    });
    assert.equal(made.status, 200);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Json = await admin(server, 'GET', `/workspaces/${fx.workspaceId}/objects?page_size=2${cursor ? `&start_cursor=${cursor}` : ''}`);
      assert.ok(page.results.length <= 2);
      seen.push(...page.results.map((o: Json) => o.title));
      cursor = page.next_cursor;
    } while (cursor);
    // Sibling order (position, then id): each once, the child not among them.
    assert.deepEqual([...seen].sort(), titles, 'the top level, each once, without the child');
    const children = await admin(server, 'GET', `/workspaces/${fx.workspaceId}/objects?parent_id=${pages[0].id}`);
    assert.deepEqual(
      children.results.map((o: Json) => [o.title, o.kind, o.parent_id, o.in_trash]),
      [['A child', 'page', pages[0].id, false]],
    );
    const one = await admin(server, 'GET', `/objects/${made.body.id}`);
    assert.equal(one.title, 'A child');

    const bad = await call<Json>(server.url, 'GET', `/admin/v1/workspaces/${fx.workspaceId}/objects?parent_id=nope`, {
      token: server.adminToken,
      version: null,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation_error');
    assert.match(bad.body.message, /parent_id/);
    const badCursor = await call<Json>(server.url, 'GET', `/admin/v1/workspaces/${fx.workspaceId}/objects?start_cursor=xyz`, {
      token: server.adminToken,
      version: null,
    });
    assert.equal(badCursor.status, 400);
    assert.match(badCursor.body.message, /start_cursor/);
    const missing = await call<Json>(server.url, 'GET', '/admin/v1/objects/00000000-0000-4000-8000-000000000000', { token: server.adminToken, version: null });
    assert.equal(missing.status, 404);
    const noNotes = await admin(server, 'GET', `/workspaces/${fx.workspaceId}/meeting_notes`);
    assert.deepEqual(noNotes.results, []);
    const noNote = await call<Json>(server.url, 'GET', `/admin/v1/meeting_notes/${pages[1].id}`, { token: server.adminToken, version: null });
    assert.equal(noNote.status, 404);
  });
});

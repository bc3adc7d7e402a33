/**
 * Issue 27 item 6, acceptance line 2: each event type Folio emits arrives once, signed, with the
 * right entity and `authors`; an unshared page's events never reach a connection that cannot see it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { send } from '../fileUploads/helpers.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/schemas/webhooks.js';
import { Receiver, subscribe } from './receiver.js';

type Json = Record<string, any>;

const ENV = { FOLIO_JOB_POLL_MS: '50', FOLIO_WEBHOOK_AGGREGATION_MS: '1000', FOLIO_ALLOW_PRIVATE_URLS: '1', FOLIO_JOB_RETRY_MS: '50' };
const title = (text: string) => ({ title: { title: [{ text: { content: text } }] } });

describe('webhooks: every event type Folio emits, once each', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('a tour of the API: pages, blocks, databases, data sources, comments, uploads, views', { timeout: 60_000 }, async () => {
    const { token } = await subscribe(server, receiver, fx.connection.id, { event_types: [...WEBHOOK_EVENT_TYPES] });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await call<Json>(server.url, method, path, { token: fx.token, body });
      assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const expected: [string, string][] = [];
    const expect = (type: string, id: string) => expected.push([type, id]);

    const parent = await makeSharedPage(server, fx, 'Parent');
    const other = await makeSharedPage(server, fx, 'Other parent');
    const page = await api('POST', '/v1/pages', { parent: { page_id: parent.id }, properties: title('Tour') });
    expect('page.created', page.id);
    await api('PATCH', `/v1/pages/${page.id}`, { properties: title('Tour, renamed') });
    expect('page.properties_updated', page.id);
    const appended = await api('PATCH', `/v1/blocks/${page.id}/children`, { children: [{ paragraph: { rich_text: [{ text: { content: 'one' } }] } }] });
    await api('PATCH', `/v1/blocks/${appended.results[0].id}`, { paragraph: { rich_text: [{ text: { content: 'two' } }] } });
    expect('page.content_updated', page.id);
    await api('PATCH', `/v1/pages/${page.id}`, { is_locked: true });
    expect('page.locked', page.id);
    await api('PATCH', `/v1/pages/${page.id}`, { is_locked: false });
    expect('page.unlocked', page.id);
    await api('POST', `/v1/pages/${page.id}/move`, { parent: { page_id: other.id } });
    expect('page.moved', page.id);
    await api('PATCH', `/v1/pages/${page.id}`, { in_trash: true });
    expect('page.deleted', page.id);
    await api('PATCH', `/v1/pages/${page.id}`, { in_trash: false });
    expect('page.undeleted', page.id);

    const database = await api('POST', '/v1/databases', {
      parent: { page_id: parent.id },
      title: [{ text: { content: 'Tasks' } }],
      initial_data_source: { properties: { Name: { title: {} } } },
    });
    const source = database.data_sources[0];
    expect('database.created', database.id);
    expect('data_source.created', source.id);
    await api('PATCH', `/v1/data_sources/${source.id}`, { properties: { Done: { checkbox: {} } } });
    expect('data_source.schema_updated', source.id);
    expect('database.schema_updated', database.id);
    const row = await api('POST', '/v1/pages', { parent: { data_source_id: source.id }, properties: { Name: { title: [{ text: { content: 'Row' } }] } } });
    expect('page.created', row.id);
    expect('data_source.content_updated', source.id);
    expect('database.content_updated', database.id);
    const second = await api('POST', '/v1/data_sources', { parent: { database_id: database.id }, properties: { Name: { title: {} } } });
    expect('data_source.created', second.id);
    await api('PATCH', `/v1/data_sources/${second.id}`, { in_trash: true });
    expect('data_source.deleted', second.id);
    await api('PATCH', `/v1/data_sources/${second.id}`, { in_trash: false });
    expect('data_source.undeleted', second.id);
    const target = await api('POST', '/v1/databases', { parent: { page_id: other.id }, initial_data_source: { properties: { Name: { title: {} } } } });
    expect('database.created', target.id);
    expect('data_source.created', target.data_sources[0].id);
    await api('PATCH', `/v1/data_sources/${second.id}`, { parent: { database_id: target.id } });
    expect('data_source.moved', second.id);
    await api('PATCH', `/v1/databases/${database.id}`, { parent: { page_id: other.id } });
    expect('database.moved', database.id);
    await api('PATCH', `/v1/databases/${database.id}`, { in_trash: true });
    expect('database.deleted', database.id);
    await api('PATCH', `/v1/databases/${database.id}`, { in_trash: false });
    expect('database.undeleted', database.id);

    const view = await api('POST', '/v1/views', { database_id: database.id, data_source_id: source.id, name: 'Board', type: 'table' });
    expect('view.created', view.id);
    await api('PATCH', `/v1/views/${view.id}`, { name: 'Renamed' });
    expect('view.updated', view.id);
    await api('DELETE', `/v1/views/${view.id}`);
    expect('view.deleted', view.id);

    const comment = await api('POST', '/v1/comments', { parent: { page_id: parent.id }, rich_text: [{ text: { content: 'Nice' } }] });
    expect('comment.created', comment.id);
    await api('PATCH', `/v1/comments/${comment.id}`, { rich_text: [{ text: { content: 'Nicer' } }] });
    expect('comment.updated', comment.id);
    await api('DELETE', `/v1/comments/${comment.id}`);
    expect('comment.deleted', comment.id);

    const upload = await api('POST', '/v1/file_uploads', { filename: 'a.txt', content_type: 'text/plain' });
    expect('file_upload.created', upload.id);
    const sent = await send(server, fx.token, upload.id, Buffer.from('hello'), { contentType: 'text/plain', filename: 'a.txt' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    expect('file_upload.completed', upload.id);
    // The receiver answers the probe (HEAD) but not the download: the import fails.
    const failing = await api('POST', '/v1/file_uploads', {
      mode: 'external_url',
      external_url: receiver.url.replace('/hook', '/flaky.png'),
      filename: 'x.png',
    });
    expect('file_upload.created', failing.id);
    expect('file_upload.upload_failed', failing.id);

    const key = (t: string, id: string) => `${t} ${id}`;
    const wanted = new Set(expected.map(([t, id]) => key(t, id)));
    await receiver
      .waitFor((r) => wanted.has(key(r.body.type, r.body.entity?.id)), wanted.size, 30_000)
      .catch((error: Error) => {
        const got = new Set(receiver.events().map((r) => key(r.body.type, r.body.entity.id)));
        throw new Error(`${error.message}\nmissing: ${[...wanted].filter((k) => !got.has(k)).join(', ')}`);
      });
    // A little longer: nothing arrives twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const counts = new Map<string, number>();
    for (const r of receiver.events()) counts.set(key(r.body.type, r.body.entity.id), (counts.get(key(r.body.type, r.body.entity.id)) ?? 0) + 1);
    for (const k of wanted)
      assert.equal(
        counts.get(k),
        1,
        `${k} arrived ${counts.get(k)} times: ${JSON.stringify(
          receiver
            .events()
            .filter((r) => key(r.body.type, r.body.entity.id) === k)
            .map((r) => r.body),
        )}`,
      );
    for (const r of receiver.events()) {
      assert.deepEqual(r.body.authors, [{ id: fx.connection.bot_id, type: 'bot' }], r.raw);
      assert.equal(r.body.workspace_id, fx.workspaceId);
      assert.equal(r.body.workspace_name, 'Test workspace');
      assert.equal(r.body.integration_id, fx.connection.id);
      assert.equal(r.body.api_version, '2026-03-11');
      assert.match(r.body.timestamp, /^\d{4}-\d\d-\d\dT/);
    }
    const byKey = (t: string, id: string) => receiver.events().find((r) => key(r.body.type, r.body.entity.id) === key(t, id))!.body;
    // Two block edits of one page: one aggregated page.content_updated naming the block once.
    assert.deepEqual(byKey('page.content_updated', page.id).data.updated_blocks, [{ id: appended.results[0].id, type: 'block' }]);
    assert.deepEqual(byKey('page.moved', page.id).data.parent, { id: other.id, type: 'page' });
    assert.deepEqual(byKey('page.created', row.id).data.parent, { id: database.id, type: 'database', data_source_id: source.id });
    assert.deepEqual(
      byKey('data_source.schema_updated', source.id).data.updated_properties.map((p: Json) => [p.name, p.action]),
      [['Done', 'created']],
    );
    assert.deepEqual(byKey('comment.created', comment.id).data, { page_id: parent.id, parent: { id: parent.id, type: 'page' } });
    assert.deepEqual(byKey('view.created', view.id).data, { parent: { id: database.id, type: 'database' }, view_type: 'table' });
    assert.equal(byKey('file_upload.created', upload.id).data, undefined);
    assert.equal(byKey('file_upload.upload_failed', failing.id).data.file_import_result.type, 'error');
    await receiver.assertSigned(token);
  });
});

describe('webhooks: only what the connection can see', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test("an unshared page's events never reach a connection that cannot see it; a shared one's do", { timeout: 30_000 }, async () => {
    const watcher = await addConnection(server, fx.workspaceId, ['read_content']);
    const shared = await makeSharedPage(server, fx, 'Shared with both');
    await admin(server, 'POST', `/connections/${watcher.id}/grants`, { object_id: shared.id });
    const hidden = await makeSharedPage(server, fx, 'Only the writer sees this');
    await subscribe(server, receiver, watcher.id);
    const writerReceiver = await new Receiver().start();
    try {
      await subscribe(server, writerReceiver, fx.connection.id);
      const inHidden = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        body: { parent: { page_id: hidden.id }, properties: title('Secret') },
      });
      const inShared = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        body: { parent: { page_id: shared.id }, properties: title('Open') },
      });
      const comment = await call<Json>(server.url, 'POST', '/v1/comments', {
        token: fx.token,
        body: { parent: { page_id: hidden.id }, rich_text: [{ text: { content: 'psst' } }] },
      });
      assert.equal(comment.status, 200);
      // The writer hears all three; the watcher only the shared page's creation (and no comments: it lacks read_comments).
      await writerReceiver.waitFor((r) => [inHidden.body.id, inShared.body.id, comment.body.id].includes(r.body.entity?.id), 3);
      await receiver.waitFor((r) => r.body.entity?.id === inShared.body.id);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.deepEqual(
        receiver.events().map((r) => [r.body.type, r.body.entity.id]),
        [['page.created', inShared.body.id]],
      );
    } finally {
      await writerReceiver.stop();
    }
  });
});

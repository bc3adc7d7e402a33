/**
 * Issue 25 item 7: `allow_async: true` on POST /v1/pages answers 202 with a queued async task; the
 * task runs the same command as the synchronous request, as the same connection, and polling
 * GET /v1/async_tasks/{id} shows its result (the synchronous body, at the poller's version) or
 * its error; a task is its own connection's and is gone after its retention.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { pollTask } from './helpers.js';

type Json = Record<string, any>;
const quiet = () => {};
const TASK_ID = /^task_[0-9a-f]{32}$/;

/** The parts of a created page that differ between two creations of the same body. */
function withoutIdentity(page: Json): Json {
  const { id: _id, url: _url, created_time: _c, last_edited_time: _e, ...rest } = page;
  return rest;
}

describe('async tasks: allow_async on POST /v1/pages', () => {
  const { server, fx } = useServer({ env: { FOLIO_TEST_CLOCK: '1' } });
  const client = (auth = fx.token) => new Client({ auth, baseUrl: server.url, notionVersion: '2026-03-11', logger: quiet });

  test('202 with a queued task; polled to succeeded, its result is the synchronous response', async () => {
    const parent = await makeSharedPage(server, fx);
    const body = {
      parent: { page_id: parent.id },
      properties: { title: { title: [{ text: { content: 'Made in the background' } }] } },
      children: [{ paragraph: { rich_text: [{ text: { content: 'hello' } }] } }],
    };
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { ...body, allow_async: true } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const task = accepted.body;
    assert.equal(task.object, 'async_task');
    assert.match(task.id, TASK_ID);
    assert.equal(task.status, 'queued');
    assert.equal(task.status_url, `${server.url}/v1/async_tasks/${task.id}`);
    assert.deepEqual(task.operation, { surface: 'rest', name: 'POST /v1/pages' });
    assert.equal(typeof task.poll_after_seconds, 'number');
    assert.ok(!Number.isNaN(Date.parse(task.created_time)));

    const done = await pollTask(server.url, fx.token, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal('poll_after_seconds' in done, false);
    const created = done.result;
    assert.equal(created.object, 'page');
    // The page exists, as its connection sees it, and the result is what reading it answers.
    const read = await call<Json>(server.url, 'GET', `/v1/pages/${created.id}`, { token: fx.token });
    assert.equal(read.status, 200);
    assert.deepEqual(created, read.body);
    const children = await call<Json>(server.url, 'GET', `/v1/blocks/${created.id}/children`, { token: fx.token });
    assert.equal(children.body.results[0].paragraph.rich_text[0].plain_text, 'hello');
    // The same body sent synchronously answers the same page but for its identity.
    const sync = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body });
    assert.equal(sync.status, 200);
    assert.deepEqual(withoutIdentity(created), withoutIdentity(sync.body));
  });

  test('through the SDK: pages.create with allow_async, then asyncTasks.retrieve', async () => {
    const parent = await makeSharedPage(server, fx);
    const task = (await client().pages.create({
      parent: { page_id: parent.id },
      properties: { title: { title: [{ text: { content: 'SDK task' } }] } },
      allow_async: true,
    } as any)) as unknown as Json;
    assert.equal(task.object, 'async_task');
    let polled = await client().asyncTasks.retrieve({ task_id: task.id });
    for (let i = 0; i < 200 && polled.status !== 'succeeded' && polled.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      polled = await client().asyncTasks.retrieve({ task_id: task.id });
    }
    assert.equal(polled.status, 'succeeded', JSON.stringify(polled));
    if (polled.status !== 'succeeded') return;
    assert.equal((polled.result as Json).properties.title.title[0].plain_text, 'SDK task');
  });

  test('allow_async: false answers synchronously', async () => {
    const parent = await makeSharedPage(server, fx);
    const res = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: parent.id }, allow_async: false } });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'page');
  });

  test('a check only the command makes fails the task, not the request: failed with the error the synchronous call gives', async () => {
    const parent = await makeSharedPage(server, fx);
    const body = { parent: { page_id: parent.id }, children: [], content: [] };
    const sync = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body });
    assert.equal(sync.status, 400);
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { ...body, allow_async: true } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const done = await pollTask(server.url, fx.token, accepted.body.id);
    assert.equal(done.status, 'failed');
    const { request_id: _, ...expected } = sync.body;
    assert.deepEqual(done.error, expected);
    assert.equal(done.error.code, 'validation_error');
    assert.match(done.error.message, /content/);
    assert.equal('result' in done, false);
  });

  test('a parent the connection cannot see: the task fails object_not_found', async () => {
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: hidden.id }, allow_async: true } });
    assert.equal(accepted.status, 202);
    const done = await pollTask(server.url, fx.token, accepted.body.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.error.status, 404);
    assert.equal(done.error.code, 'object_not_found');
  });

  test('schema checks still answer 400 at once', async () => {
    const res = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { allow_async: 'yes' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.match(res.body.message, /allow_async/);
  });

  test('another connection, an unknown id, a malformed id: 404 object_not_found', async () => {
    const parent = await makeSharedPage(server, fx);
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: parent.id }, allow_async: true } });
    await pollTask(server.url, fx.token, accepted.body.id);
    // Even one that may do everything else: a task is seen by its own connection only, which needs no capability.
    const other = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content']);
    const bare = await addConnection(server, fx.workspaceId, []);
    for (const token of [other.token]) {
      const res = await call<Json>(server.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, { token });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'object_not_found');
    }
    for (const id of ['task_abc123', 'task_00000000000000000000000000000000', 'nonsense']) {
      const res = await call<Json>(server.url, 'GET', `/v1/async_tasks/${id}`, { token: bare.token });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 'object_not_found');
    }
    const noToken = await call<Json>(server.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, {});
    assert.equal(noToken.status, 401);
    await assert.rejects(
      () => client(other.token).asyncTasks.retrieve({ task_id: accepted.body.id }),
      (error: unknown) => APIResponseError.isAPIResponseError(error) && error.code === APIErrorCode.ObjectNotFound,
    );
  });

  test('a connection without insert_content is refused before any task is made', async () => {
    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    const res = await call<Json>(server.url, 'POST', '/v1/pages', { token: reader.token, body: { parent: { workspace: true }, allow_async: true } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'restricted_resource');
  });

  test('the result is shown at the poller’s version', async () => {
    const parent = await makeSharedPage(server, fx);
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      version: '2022-06-28',
      body: { parent: { page_id: parent.id }, allow_async: true },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const newest = await pollTask(server.url, fx.token, accepted.body.id);
    assert.equal('archived' in newest.result, false);
    const older = await pollTask(server.url, fx.token, accepted.body.id, '2025-09-03');
    assert.equal(older.result.archived, false);
    assert.equal(older.result.in_trash, false);
    assert.equal(older.status, 'succeeded');
    const oldest = await pollTask(server.url, fx.token, accepted.body.id, '2022-06-28');
    const sync = await call<Json>(server.url, 'GET', `/v1/pages/${newest.result.id}`, { token: fx.token, version: '2022-06-28' });
    assert.deepEqual(oldest.result, sync.body);
  });

  test('an ended task is kept 24 hours, then polling answers 404', async () => {
    const start = new Date('2031-03-01T10:00:00.000Z');
    await admin(server, 'POST', '/clock', { now: start.toISOString() });
    try {
      const parent = await makeSharedPage(server, fx);
      const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: parent.id }, allow_async: true } });
      assert.equal(accepted.body.created_time, start.toISOString());
      assert.equal((await pollTask(server.url, fx.token, accepted.body.id)).status, 'succeeded');
      await admin(server, 'POST', '/clock', { now: new Date(start.getTime() + 24 * 3600_000 - 1000).toISOString() });
      assert.equal((await call<Json>(server.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, { token: fx.token })).status, 200);
      await admin(server, 'POST', '/clock', { now: new Date(start.getTime() + 24 * 3600_000).toISOString() });
      const gone = await call<Json>(server.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, { token: fx.token });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 'object_not_found');
    } finally {
      await admin(server, 'POST', '/clock', { now: null });
    }
  });
});

/**
 * Issue 25 item 7: an async task survives its server. A task left queued (this server runs no
 * async-task workers) or running when its server is killed (SIGKILL) is run by the next server on
 * the same store, and then polls succeeded.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildServer, type ChildServer } from '../platform/childServer.js';
import { addConnection, admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { pollTask } from './helpers.js';

type Json = Record<string, any>;

describe('async tasks: a server killed with a task queued', () => {
  const env = { FOLIO_JOB_LEASE_SECONDS: '2', FOLIO_JOB_POLL_MS: '100' };
  let child: ChildServer;
  before(async () => {
    child = await startChildServer({ env: { ...env, FOLIO_ASYNC_TASK_WORKERS: '0' } });
  });
  after(async () => {
    child.process.kill('SIGTERM');
    await child.exited;
  });

  test('SIGKILL while queued: the next server on the same store runs it and it succeeds', { timeout: 60_000 }, async () => {
    const server = { url: child.url, adminToken: child.adminToken, dataDir: child.dataDir } as TestServer;
    const fx = await makeWorkspace(server);
    const parent = await makeSharedPage(server, fx);
    const accepted = await call<Json>(child.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: 'Outlived its server' } }] } }, allow_async: true },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    const queued = await call<Json>(child.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, { token: fx.token });
    assert.equal(queued.body.status, 'queued');

    child.process.kill('SIGKILL');
    await child.exited;
    child = await startChildServer({ port: child.port, dataDir: child.dataDir, env: { ...env, FOLIO_ADMIN_TOKEN: server.adminToken } });

    const done = await pollTask(child.url, fx.token, accepted.body.id);
    assert.equal(done.status, 'succeeded', child.stderr());
    assert.equal(done.result.properties.title.title[0].plain_text, 'Outlived its server');
    assert.equal(done.status_url, `${child.url}/v1/async_tasks/${accepted.body.id}`);
    const jobs = (await admin(server, 'GET', '/jobs?kind=async_task')).results.filter((job: Json) => job.subject_id === accepted.body.id);
    assert.equal(jobs.length, 1, JSON.stringify(jobs));
    assert.equal(jobs[0].state, 'done');
    // Run once: one page under the parent.
    const children = await call<Json>(child.url, 'GET', `/v1/blocks/${parent.id}/children`, { token: fx.token });
    assert.equal(children.body.results.length, 1);
  });
});

describe('async tasks: a connection revoked before its task runs', () => {
  const env = { FOLIO_JOB_POLL_MS: '100' };
  let child: ChildServer;
  before(async () => {
    child = await startChildServer({ env: { ...env, FOLIO_ASYNC_TASK_WORKERS: '0' } });
  });
  after(async () => {
    child.process.kill('SIGTERM');
    await child.exited;
  });

  test('the task runs as the connection is now: revoked, it fails as its request would, and writes nothing', { timeout: 60_000 }, async () => {
    const server = { url: child.url, adminToken: child.adminToken, dataDir: child.dataDir } as TestServer;
    const fx = await makeWorkspace(server);
    const parent = await makeSharedPage(server, fx);
    const watcher = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${watcher.id}/grants`, { object_id: parent.id });
    const accepted = await call<Json>(child.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: parent.id }, allow_async: true } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    await admin(server, 'DELETE', `/connections/${fx.connection.id}`);

    child.process.kill('SIGTERM');
    await child.exited;
    child = await startChildServer({ port: child.port, dataDir: child.dataDir, env: { ...env, FOLIO_ADMIN_TOKEN: server.adminToken } });
    let jobs: Json[] = [];
    for (let i = 0; i < 200; i++) {
      jobs = (await admin(server, 'GET', '/jobs?kind=async_task')).results.filter((job: Json) => job.subject_id === accepted.body.id);
      if (jobs[0]?.state === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The request's own answer (unauthorized) ends the task: no retry, nothing written.
    assert.equal(jobs[0]?.state, 'done', JSON.stringify(jobs));
    assert.equal(jobs[0].attempts, 1);
    const children = await call<Json>(child.url, 'GET', `/v1/blocks/${parent.id}/children`, { token: watcher.token });
    assert.deepEqual(children.body.results, []);
    assert.equal((await call<Json>(child.url, 'GET', `/v1/async_tasks/${accepted.body.id}`, { token: fx.token })).status, 401);
  });
});

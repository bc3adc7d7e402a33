/**
 * Issue 25 item 7, the gap it left: a task's request writes, its result and its job's end commit
 * in one fenced write (src/commands/asyncTasks/runAsyncTask.ts), so a process that dies just after
 * that commit leaves nothing to run again. The task runs here through runAsyncTask on a second
 * core over the test server's store (whose own workers run no async tasks), with a RunningJob whose
 * first write "dies" right after its transaction commits, as a killed process would.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { createCore, type Core } from '../../src/core.js';
import type { RunningJob } from '../../src/domain/jobs.js';
import type { AsyncTaskPayload } from '../../src/commands/asyncTasks/asyncTaskJob.js';
import { runAsyncTask } from '../../src/commands/asyncTasks/runAsyncTask.js';
import { jobsOfSubject } from '../../src/storage/repositories/jobs.js';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { pollTask } from './helpers.js';

type Json = Record<string, any>;

describe('async tasks: the request, its result and the job end in one write', () => {
  const { server, fx } = useServer({ env: { FOLIO_ASYNC_TASK_WORKERS: '0' } });
  let core: Core | undefined;
  after(async () => core?.close());

  async function queuedTask(body: Json): Promise<string> {
    const accepted = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { ...body, allow_async: true } });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    return accepted.body.id as string;
  }

  /** The task's job as a worker would hold it, on the real store; `dies` makes its first write fail after committing. */
  async function heldJob(taskId: string, dies: boolean): Promise<RunningJob<AsyncTaskPayload>> {
    core ??= await createCore(
      loadConfig({
        FOLIO_DATA_DIR: server.dataDir,
        FOLIO_LOG_LEVEL: 'silent',
        ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      }),
    );
    const store = core.store;
    const [row] = await jobsOfSubject(store.db, taskId);
    assert.ok(row, `no job for ${taskId}`);
    let died = false;
    return {
      row,
      payload: JSON.parse(row.payload) as AsyncTaskPayload,
      signal: new AbortController().signal,
      async write(fn) {
        const result = await store.transaction((trx) => fn(trx));
        if (dies && !died) {
          died = true;
          throw new Error('the process died right after this commit');
        }
        return result;
      },
    };
  }

  test('dying right after the commit: the next attempt finds the task ended and makes no second page', async () => {
    const parent = await makeSharedPage(server, fx);
    const taskId = await queuedTask({ parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: 'Once only' } }] } } });
    const dying = await heldJob(taskId, true);
    await assert.rejects(runAsyncTask(core!, dying), /process died/);
    const next = await heldJob(taskId, false);
    await runAsyncTask(core!, next);
    const done = await pollTask(server.url, fx.token, taskId);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const children = await call<Json>(server.url, 'GET', `/v1/blocks/${parent.id}/children`, { token: fx.token });
    assert.deepEqual(
      children.body.results.map((b: Json) => b.id),
      [done.result.id],
    );
  });

  test('a request its command refuses still ends failed, with nothing written', async () => {
    const parent = await makeSharedPage(server, fx);
    const taskId = await queuedTask({ parent: { page_id: parent.id }, properties: { Nope: { number: 1 } } });
    const job = await heldJob(taskId, false);
    await runAsyncTask(core!, job);
    const done = await pollTask(server.url, fx.token, taskId);
    assert.equal(done.status, 'failed', JSON.stringify(done));
    assert.equal(done.error.code, 'validation_error');
    const children = await call<Json>(server.url, 'GET', `/v1/blocks/${parent.id}/children`, { token: fx.token });
    assert.equal(children.body.results.length, 0);
  });
});

import assert from 'node:assert/strict';
import { call } from '../helpers/http.js';

type Json = Record<string, any>;

/** Polls a task until it ends (or the tries run out), waiting what it asks between polls (capped for the test). */
export async function pollTask(url: string, token: string, taskId: string, version?: string): Promise<Json> {
  let task: Json = {};
  for (let i = 0; i < 200; i++) {
    const res = await call<Json>(url, 'GET', `/v1/async_tasks/${taskId}`, { token, version });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    task = res.body;
    if (task.status === 'succeeded' || task.status === 'failed') return task;
    assert.equal(typeof task.poll_after_seconds, 'number');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`task ${taskId} did not end: ${JSON.stringify(task)}`);
}

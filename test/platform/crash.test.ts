/**
 * Crash safety: writers keep creating pages while the server is killed with SIGKILL at random
 * moments and restarted on the same store. Every write that was answered 200 must still be there
 * afterwards, and writes that were cut off must leave either a whole page or nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createStore } from '../../src/storage/createStore.js';
import { STORE } from '../helpers/server.js';
import { postJson, startChildServer, type ChildServer } from './childServer.js';

const KILLS = 10;
const WRITERS = 4;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test(`every write answered 200 survives ${KILLS} SIGKILLs (${STORE})`, { timeout: 180_000 }, async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-crash-'));
  const run = randomUUID().slice(0, 8);
  let server: ChildServer = await startChildServer({ dataDir });
  // Each restart on the same address and token, so the writers' URL and token stay good.
  const { port, adminToken } = server;
  const restartEnv = { FOLIO_ADMIN_TOKEN: adminToken };
  const workspace = await postJson(`${server.url}/admin/v1/workspaces`, adminToken, { name: `crash ${run}` });
  assert.equal(workspace.status, 200);
  const pagesUrl = `${server.url}/admin/v1/workspaces/${workspace.body.id}/pages`;

  const acknowledged = new Map<string, string>();
  const attempted = new Set<string>();
  let cutOff = 0;
  let seq = 0;

  for (let round = 0; round < KILLS; round++) {
    let killed = false;
    const writer = async () => {
      while (!killed) {
        const title = `crash ${run} #${seq++}`;
        attempted.add(title);
        try {
          const res = await postJson(pagesUrl, adminToken, { title });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          acknowledged.set(res.body.id, title);
        } catch (error) {
          if (error instanceof assert.AssertionError) throw error;
          // The server died under this request: its outcome is unknown, and that is allowed.
          cutOff++;
          return;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await sleep(50 + Math.random() * 350);
    server.process.kill('SIGKILL');
    assert.equal(await server.exited, 'SIGKILL');
    killed = true;
    await Promise.all(writers);
    server = await startChildServer({ port, dataDir, env: restartEnv });
  }

  // The restarted server is healthy and takes writes as before.
  const ready = await fetch(`${server.url}/readyz`);
  assert.equal(ready.status, 200);
  const last = await postJson(pagesUrl, adminToken, { title: `crash ${run} last` });
  assert.equal(last.status, 200);
  acknowledged.set(last.body.id, `crash ${run} last`);
  attempted.add(`crash ${run} last`);
  server.process.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.stderr());

  t.diagnostic(`${acknowledged.size} writes answered 200, ${cutOff} cut off by a kill`);
  assert.ok(acknowledged.size > KILLS, `enough writes were answered to mean something (${acknowledged.size})`);
  assert.ok(cutOff > 0, 'some writes were in flight when the server was killed');

  const store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir });
  try {
    const rows = await store.db.selectFrom('objects').select(['id', 'title', 'object', 'workspace_id']).where('workspace_id', '=', workspace.body.id).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const [id, title] of acknowledged) {
      const row = byId.get(id);
      assert.ok(row, `page ${id} (${title}) was answered 200 but is gone`);
      assert.equal(row.title, title);
      assert.equal(row.object, 'page');
    }
    // Cut-off writes: each title at most once, and every page is whole (closure row, title value).
    const titles = rows.map((row) => row.title);
    assert.equal(new Set(titles).size, titles.length, 'no write was applied twice');
    for (const title of titles) assert.ok(attempted.has(title), `unexpected page ${title}`);
    const ids = rows.map((row) => row.id);
    const selfRows = await store.db.selectFrom('object_ancestors').select('descendant_id').where('descendant_id', 'in', ids).where('depth', '=', 0).execute();
    assert.equal(selfRows.length, ids.length, 'every page has its closure row');
    const values = await store.db
      .selectFrom('property_values')
      .select(['page_id', 'text_value'])
      .where('page_id', 'in', ids)
      .where('property_id', '=', 'title')
      .execute();
    assert.equal(values.length, ids.length, 'every page has its title value');
    for (const value of values) assert.equal(value.text_value, byId.get(value.page_id)!.title);
  } finally {
    await store.close();
  }
});

/**
 * The server's life as an operator sees it: health and readiness checks, the admin token kept in
 * the data dir, and a graceful stop on SIGTERM/SIGINT that exits 0 and keeps what it answered.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createStore } from '../../src/storage/createStore.js';
import { STORE } from '../helpers/server.js';
import { postJson, startChildServer } from './childServer.js';
import { buildInProcess, inject } from './inProcess.js';

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function pageTitles(dataDir: string, ids: string[]): Promise<Map<string, string>> {
  const store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir });
  try {
    const rows = ids.length ? await store.db.selectFrom('objects').select(['id', 'title']).where('id', 'in', ids).execute() : [];
    return new Map(rows.map((row) => [row.id, row.title]));
  } finally {
    await store.close();
  }
}

describe('server lifecycle', () => {
  test('GET /healthz and GET /readyz', async () => {
    const server = await startChildServer();
    try {
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      assert.equal(ready.status, 200);
      const body = (await ready.json()) as Record<string, any>;
      assert.equal(body.status, 'ready');
      assert.equal(body.store, STORE);
      // Meeting-notes engines: named, with their readiness (a reason when they cannot run).
      assert.equal(body.meeting_notes.transcriber.engine, 'local');
      assert.equal(typeof body.meeting_notes.transcriber.ready, 'boolean');
      assert.equal(body.meeting_notes.summarizer.engine, 'local');
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });

  test('GET /readyz answers 503 service_unavailable when the store is unreachable', async () => {
    const { app, ctx } = await buildInProcess();
    await app.ready();
    assert.equal((await inject(app, 'GET', '/readyz', { version: null })).status, 200);
    await ctx.store.close();
    const res = await inject(app, 'GET', '/readyz', { version: null });
    assert.equal(res.status, 503);
    assert.equal(res.body.code, 'service_unavailable');
    assert.equal(res.body.object, 'error');
    // /healthz says the process is alive, whatever the store does.
    assert.equal((await inject(app, 'GET', '/healthz', { version: null })).status, 200);
    // The store is already closed: closing the app closes it again, which may complain.
    await app.close().catch(() => {});
  });

  test('while closing, in-flight requests finish and new ones on open connections get a spec-shaped 503', async () => {
    const { app } = await buildInProcess();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get('/test/slow', async () => {
      await gate;
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as net.AddressInfo;
    // Two pipelined requests on one kept-alive connection: the second arrives after close began.
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      raw += chunk;
    });
    const socketClosed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /test/slow HTTP/1.1\r\nHost: folio\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close();
    // Generous pauses: on a loaded CI machine the second request must be parsed while closing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write('GET /healthz HTTP/1.1\r\nHost: folio\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    await within(closed, 5000, 'closing');
    await within(socketClosed, 5000, 'the server closing the connection');
    const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
    assert.match(first, /^HTTP\/1\.1 200 /);
    assert.ok(first.endsWith('{"done":true}'));
    assert.match(second, /^HTTP\/1\.1 503 /);
    const [head, body] = second.split('\r\n\r\n');
    const parsed = JSON.parse(body);
    assert.deepEqual(Object.keys(parsed).sort(), ['code', 'message', 'object', 'request_id', 'status']);
    assert.equal(parsed.object, 'error');
    assert.equal(parsed.code, 'service_unavailable');
    assert.equal(parsed.status, 503);
    assert.match(head, new RegExp(`x-request-id: ${parsed.request_id}`, 'i'));
    assert.match(head, /connection: close/i);
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal}: exits 0 within a few seconds; every write answered before or during the stop is durable`, async () => {
      const server = await startChildServer();
      const workspace = await postJson(`${server.url}/admin/v1/workspaces`, server.adminToken, { name: 'shutdown' });
      const pagesUrl = `${server.url}/admin/v1/workspaces/${workspace.body.id}/pages`;
      const answered = new Map<string, string>();
      for (let i = 0; i < 5; i++) {
        const res = await postJson(pagesUrl, server.adminToken, { title: `before ${i}` });
        assert.equal(res.status, 200);
        answered.set(res.body.id, `before ${i}`);
      }
      // Writes still arriving while the server stops: each is answered 200 (and kept), refused
      // with 503 while closing, or refused at the socket; none is lost after a 200.
      const during = Array.from({ length: 8 }, (_, i) =>
        postJson(pagesUrl, server.adminToken, { title: `during ${i}` }).then(
          (res) => ({ i, status: res.status, id: res.body.id as string | undefined, code: res.body.code as string | undefined }),
          () => ({ i, status: 0, id: undefined, code: undefined }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      server.process.kill(signal);
      const code = await within(server.exited, 10_000, `stopping on ${signal}`);
      assert.equal(code, 0, server.stderr());
      for (const outcome of await Promise.all(during)) {
        assert.ok([0, 200, 503].includes(outcome.status), `status ${outcome.status}`);
        if (outcome.status === 200) answered.set(outcome.id!, `during ${outcome.i}`);
        if (outcome.status === 503) assert.equal(outcome.code, 'service_unavailable');
      }
      const titles = await pageTitles(server.dataDir, [...answered.keys()]);
      for (const [id, title] of answered) assert.equal(titles.get(id), title, `page ${id} answered 200 is durable`);
    });
  }

  test('without FOLIO_ADMIN_TOKEN a token is generated once, printed once, kept in the data dir and reused', async () => {
    const first = await startChildServer({ env: { FOLIO_ADMIN_TOKEN: '' } });
    const file = path.join(first.dataDir, 'admin-token');
    let token: string;
    try {
      token = fs.readFileSync(file, 'utf8').trim();
      assert.match(token, /^folio_/);
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.ok(first.stdout().includes(token), 'the generated token is printed on the start that made it');
      const res = await postJson(`${first.url}/admin/v1/workspaces`, token, { name: 'generated' });
      assert.equal(res.status, 200);
    } finally {
      first.process.kill('SIGTERM');
      await first.exited;
    }
    const second = await startChildServer({ dataDir: first.dataDir, env: { FOLIO_ADMIN_TOKEN: '' } });
    try {
      assert.ok(!second.stdout().includes(token), 'a restart does not print it again');
      const res = await postJson(`${second.url}/admin/v1/workspaces`, token, { name: 'again' });
      assert.equal(res.status, 200);
    } finally {
      second.process.kill('SIGTERM');
      await second.exited;
    }
  });
});

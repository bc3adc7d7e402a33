/**
 * The store unreachable (issue 29 item 5): PostgreSQL gone (a TCP proxy in front of it, closed and
 * reopened) or the SQLite file full (`PRAGMA max_page_count`) answers 503 `service_unavailable`,
 * never 500; the server recovers by itself once the store is back, and every acknowledged write is
 * still there. Each case runs on the store it concerns only.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { call } from '../helpers/http.js';
import { makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { ownDatabase, type OwnDatabase } from '../helpers/ownDatabase.js';
import { startTestServer, STORE, type TestServer } from '../helpers/server.js';
import { useServer } from '../helpers/useServer.js';

type Json = Record<string, any>;

function assertUnavailable(result: { status: number; body: unknown; headers: Headers }): void {
  assert.equal(result.status, 503, JSON.stringify(result.body));
  const body = result.body as Json;
  assert.equal(body.object, 'error');
  assert.equal(body.code, 'service_unavailable');
  assert.equal(typeof body.request_id, 'string');
  assert.ok(result.headers.get('retry-after'));
}

function createPage(server: TestServer, fx: Fixture, parentId: string, title: string) {
  return call<Json>(server.url, 'POST', '/v1/pages', {
    token: fx.token,
    body: { parent: { page_id: parentId }, properties: { title: { title: [{ text: { content: title } }] } } },
  });
}

async function childTitles(server: TestServer, fx: Fixture, parentId: string): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | undefined;
  do {
    const result = await call<Json>(server.url, 'GET', `/v1/blocks/${parentId}/children?page_size=100${cursor ? `&start_cursor=${cursor}` : ''}`, {
      token: fx.token,
    });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    for (const block of result.body.results) if (block.type === 'child_page') titles.push(block.child_page.title);
    cursor = result.body.next_cursor ?? undefined;
  } while (cursor);
  return titles;
}

/** Forwards a local port to PostgreSQL; `stop` refuses new connections and cuts the open ones, as a stopped server does. */
class TcpProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('PostgreSQL unreachable', { skip: STORE !== 'postgres' && 'PostgreSQL only: the store is reached over the network' }, () => {
  let database: OwnDatabase | null = null;
  let proxy: TcpProxy;
  let server: TestServer;
  let fx: Fixture;

  before(async () => {
    database = await ownDatabase();
    const url = new URL(database!.url);
    proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    await proxy.start();
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    // Jobs are left out: their polling would only add log lines while the store is gone.
    server = await startTestServer({
      DATABASE_URL: url.toString(),
      FOLIO_WORKERS: '0',
      FOLIO_IMPORT_WORKERS: '0',
      FOLIO_ASYNC_TASK_WORKERS: '0',
      FOLIO_TEMPLATE_WORKERS: '0',
      FOLIO_WEBHOOK_WORKERS: '0',
      FOLIO_WEBHOOK_HANDSHAKE_WORKERS: '0',
    });
    fx = await makeWorkspace(server);
  });
  after(async () => {
    await server?.close();
    await proxy?.stop();
    await database?.drop();
  });

  it('answers 503 while it is gone and recovers by itself, with no acknowledged write lost', async () => {
    const parent = await makeSharedPage(server, fx, 'Parent');
    const acknowledged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await createPage(server, fx, parent.id, `Before ${i}`);
      assert.equal(created.status, 200, JSON.stringify(created.body));
      acknowledged.push(`Before ${i}`);
    }

    await proxy.stop();
    assertUnavailable(await call(server.url, 'GET', `/v1/pages/${parent.id}`, { token: fx.token }));
    assertUnavailable(await createPage(server, fx, parent.id, 'During'));
    assert.equal((await call(server.url, 'GET', '/readyz', { version: null })).status, 503);
    assert.equal((await call(server.url, 'GET', '/healthz', { version: null })).status, 200);

    await proxy.start();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await call(server.url, 'GET', `/v1/pages/${parent.id}`, { token: fx.token })).status;
      if (status !== 200) await sleep(100);
    }
    assert.equal(status, 200, 'the server did not recover once PostgreSQL was back');
    const after = await createPage(server, fx, parent.id, 'After');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    acknowledged.push('After');
    // The refused write left nothing behind; every acknowledged one is there.
    assert.deepEqual(await childTitles(server, fx, parent.id), acknowledged);
  });
});

describe('SQLite file full', { skip: STORE !== 'sqlite' && 'SQLite only: a file of its own on this disk' }, () => {
  const { server, fx } = useServer();

  it('answers 503 while no page can be added and recovers once there is room, with no acknowledged write lost', async () => {
    const db = server.running.core.store.db;
    const parent = await makeSharedPage(server, fx, 'Parent');
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
    const pages = rows[0].page_count;
    // The file may not grow past what it holds now: the next write that needs a page fails as a
    // full disk does (SQLITE_FULL).
    await sql.raw(`PRAGMA max_page_count = ${pages}`).execute(db);
    const acknowledged: string[] = [];
    let refused: Awaited<ReturnType<typeof createPage>> | null = null;
    try {
      // Pages already in the file take a few writes before it is full.
      const filler = 'x'.repeat(1900);
      for (let i = 0; i < 200 && !refused; i++) {
        const created = await call<Json>(server.url, 'POST', '/v1/pages', {
          token: fx.token,
          body: {
            parent: { page_id: parent.id },
            properties: { title: { title: [{ text: { content: `Page ${i}` } }] } },
            children: [{ paragraph: { rich_text: [{ text: { content: filler } }] } }],
          },
        });
        if (created.status === 200) acknowledged.push(`Page ${i}`);
        else refused = created;
      }
      assert.ok(refused, 'the file never filled');
      assertUnavailable(refused);
      // Reads go on while writes cannot.
      assert.equal((await call(server.url, 'GET', `/v1/pages/${parent.id}`, { token: fx.token })).status, 200);
    } finally {
      await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
    }
    const after = await createPage(server, fx, parent.id, 'After');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    acknowledged.push('After');
    assert.deepEqual(await childTitles(server, fx, parent.id), acknowledged);
  });
});

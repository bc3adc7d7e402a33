/**
 * Issue 13: `external_url` uploads. https and public addresses only, unless the operator allows
 * private ones (FOLIO_ALLOW_PRIVATE_URLS=1, which also admits plain http to them); refused at once
 * without a Content-Type on HEAD or with a Content-Length over the limit; imported in the
 * background, ending `uploaded` or `failed` with the reason; an import cut off by a restart resumes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { startChildServer, type ChildServer } from '../platform/childServer.js';
import type { TestServer } from '../helpers/server.js';
import { ok } from '../content/helpers.js';
import { createUpload, download, MIB, patterned, PNG, refused, send, sha256 } from './helpers.js';

type Json = Record<string, any>;

/** A local file host: /photo.png, /big.bin (3 MiB, chunked), /untyped, /missing (404 on GET). */
function startFileHost(): Promise<{ url: string; close(): Promise<void> }> {
  const big = patterned(3 * MIB, 5);
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/photo.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      return response.end(request.method === 'HEAD' ? undefined : PNG);
    }
    if (path === '/big.bin') {
      // No Content-Length: the limit can only be found while streaming.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      if (request.method === 'HEAD') return response.end();
      return response.end(big);
    }
    if (path === '/missing') {
      response.writeHead(request.method === 'HEAD' ? 200 : 404, { 'content-type': 'image/png' });
      return response.end();
    }
    if (path === '/redirect') {
      response.writeHead(302, { location: '/photo.png' });
      return response.end();
    }
    response.writeHead(200);
    response.end('untyped');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

/** Polls until the import ended. */
async function settled(server: TestServer, fx: Fixture, id: string): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const upload = await ok(server, fx, 'GET', `/v1/file_uploads/${id}`);
    if (upload.status !== 'pending') return upload;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`upload ${id} still pending`);
}

describe('external_url: refused addresses (private addresses not allowed)', () => {
  const { server, fx } = useServer();

  test('loopback, private, link-local, non-https and unparsable URLs are refused at once', async () => {
    for (const url of [
      'https://127.0.0.1/a.png',
      'https://localhost/a.png',
      'https://10.1.2.3/a.png',
      'https://192.168.0.10/a.png',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/a.png',
      'http://example.com/a.png',
      'ftp://example.com/a.png',
      'not a url',
    ]) {
      refused(await createUpload(server, fx.token, { mode: 'external_url', external_url: url, filename: 'a.png' }), 'body.external_url should be');
    }
    const uploads = await ok(server, fx, 'GET', '/v1/file_uploads');
    assert.equal(uploads.results.length, 0, 'nothing was created');
  });
});

describe('external_url: imports (private addresses allowed)', () => {
  const { server, fx } = useServer({ env: { FOLIO_ALLOW_PRIVATE_URLS: '1' } });
  let host: Awaited<ReturnType<typeof startFileHost>>;
  before(async () => {
    host = await startFileHost();
  });
  after(() => host.close());
  const create = (path: string, extra: Json = {}) =>
    createUpload(server, fx.token, { mode: 'external_url', external_url: `${host.url}${path}`, filename: 'file.png', ...extra });

  test('an import ends uploaded, takes no send, and attaches like any upload', async () => {
    const res = await create('/photo.png');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.upload_url, undefined);
    const done = await settled(server, fx, res.body.id);
    assert.equal(done.status, 'uploaded');
    assert.equal(done.content_type, 'image/png');
    assert.equal(done.content_length, PNG.length);
    assert.equal(done.file_import_result.type, 'success');
    refused(await send(server, fx.token, done.id, PNG), 'imports from an external URL: it takes no `send`');
    const page = await makeSharedPage(server, fx);
    const block = (await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ image: { file_upload: { id: done.id } } }] })).results[0];
    assert.equal(sha256((await download(block.image.file.url)).bytes), sha256(PNG));
    assert.equal((await settled(server, fx, (await create('/redirect')).body.id)).status, 'uploaded', 'a redirect is followed');
  });

  test('no Content-Type on HEAD is refused at once; a failed download ends `failed`', async () => {
    refused(await create('/untyped'), 'body.external_url should be a URL whose HEAD response has a Content-Type');
    const missing = await create('/missing');
    assert.equal(missing.status, 200);
    const failed = await settled(server, fx, missing.body.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.file_import_result.type, 'error');
    assert.equal(failed.file_import_result.error.type, 'download_error');
    assert.equal(failed.file_import_result.error.status_code, 404);
  });

  test('the size limit holds while streaming', async () => {
    await admin(server, 'PATCH', `/workspaces/${fx.workspaceId}`, { max_file_upload_size_in_bytes: 2 * MIB });
    try {
      const res = await create('/big.bin', { filename: 'big.bin' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const failed = await settled(server, fx, res.body.id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.file_import_result.error.code, 'file_too_large');
    } finally {
      await admin(server, 'PATCH', `/workspaces/${fx.workspaceId}`, { max_file_upload_size_in_bytes: null });
    }
  });
});

/** A host whose /slow.bin (1 MiB) takes about two seconds to send; counts the GETs and the bytes sent. */
function startSlowHost(bytes: Buffer): Promise<{ url: string; gets: () => number; sent: () => number; close(): Promise<void> }> {
  let gets = 0;
  let sent = 0;
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length });
    if (request.method === 'HEAD') return response.end();
    gets++;
    let offset = 0;
    const timer = setInterval(() => {
      const chunk = bytes.subarray(offset, offset + 64 * 1024);
      offset += chunk.length;
      sent += chunk.length;
      if (offset >= bytes.length) {
        clearInterval(timer);
        response.end(chunk);
      } else response.write(chunk);
    }, 120);
    response.on('close', () => clearInterval(timer));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        gets: () => gets,
        sent: () => sent,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('external_url: an import cut off by a restart', () => {
  // A lease longer than a busy machine's start-up stalls, so only the killed worker's claim runs out.
  const env = { FOLIO_ALLOW_PRIVATE_URLS: '1', FOLIO_JOB_LEASE_SECONDS: '5', FOLIO_JOB_POLL_MS: '100' };
  const bytes = patterned(MIB, 9);
  let host: Awaited<ReturnType<typeof startSlowHost>>;
  let child: ChildServer;
  before(async () => {
    host = await startSlowHost(bytes);
    child = await startChildServer({ env });
  });
  after(async () => {
    child.process.kill('SIGTERM');
    await child.exited;
    await host.close();
  });

  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    test(`${signal} mid-download: the next server's worker imports the file again and it ends uploaded`, { timeout: 60_000 }, async () => {
      const server = { url: child.url, adminToken: child.adminToken, dataDir: child.dataDir } as TestServer;
      const fx = await makeWorkspace(server);
      const getsBefore = host.gets();
      const res = await createUpload(server, fx.token, { mode: 'external_url', external_url: `${host.url}/slow.bin`, filename: 'slow.bin' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const sentBefore = host.sent();
      for (let i = 0; i < 100 && host.sent() - sentBefore < 128 * 1024; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok(host.sent() - sentBefore < bytes.length, 'stopped mid-download');
      child.process.kill(signal);
      await child.exited;
      child = await startChildServer({ port: child.port, dataDir: child.dataDir, env: { ...env, FOLIO_ADMIN_TOKEN: server.adminToken } });

      let upload: Json = {};
      for (let i = 0; i < 300; i++) {
        upload = await ok(server, fx, 'GET', `/v1/file_uploads/${res.body.id}`);
        if (upload.status !== 'pending') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(upload.status, 'uploaded', child.stderr());
      assert.equal(upload.content_length, bytes.length);
      assert.equal(upload.file_import_result.type, 'success');
      const jobs0 = await admin(server, 'GET', `/jobs?subject_id=${res.body.id}`);
      // At least twice: a machine stalled past the lease (a loaded CI start-up) may see the new worker's own claim taken over too.
      assert.ok(host.gets() - getsBefore >= 2, JSON.stringify(jobs0));
      const jobs = await admin(server, 'GET', `/jobs?subject_id=${res.body.id}`);
      assert.equal(jobs.results.length, 1);
      assert.equal(jobs.results[0].state, 'done');
      // A killed worker's claim counts; a job handed back at a graceful shutdown has its attempt refunded.
      assert.ok(jobs.results[0].attempts >= (signal === 'SIGKILL' ? 2 : 1), JSON.stringify(jobs.results[0]));
      const page = await makeSharedPage(server, fx);
      const block = (await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ file: { file_upload: { id: upload.id } } }] })).results[0];
      assert.equal(sha256((await download(block.file.file.url)).bytes), sha256(bytes));
    });
  }
});

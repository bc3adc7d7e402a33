/**
 * startChildServer (./childServer.ts) is ready only when the server on its port is the child it
 * spawned. Test files run side by side (.ci/run), and a port picked with freePort() may meanwhile be
 * taken by another file's child: that child, or any server, answers GET /healthz just as well, and
 * a test would then talk to the wrong server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { startChildServer } from './childServer.js';

describe('startChildServer', () => {
  test('on a port another server holds and answers /healthz on, it fails with EADDRINUSE instead of being taken for ready', async () => {
    const other = http.createServer((request, response) => {
      response.writeHead(request.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' });
      response.end(request.url === '/healthz' ? '{"status":"ok"}' : '{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as net.AddressInfo;
      await assert.rejects(startChildServer({ port }), new RegExp(`port ${port} is taken by another process \\(EADDRINUSE\\)`));
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  test("on the port of another test's child, it fails rather than answer with that child; each child has its own admin token", async () => {
    const first = await startChildServer();
    try {
      await assert.rejects(startChildServer({ port: first.port }), /EADDRINUSE/);
      const answer = await fetch(`${first.url}/admin/v1/faults`, { headers: { authorization: `Bearer ${first.adminToken}` } });
      assert.equal(answer.status, 200, 'the first child still serves, with its own token');
      const second = await startChildServer();
      try {
        assert.notEqual(second.adminToken, first.adminToken);
        const foreign = await fetch(`${second.url}/admin/v1/faults`, { headers: { authorization: `Bearer ${first.adminToken}` } });
        assert.equal(foreign.status, 401, "one child's token is not another's");
      } finally {
        second.process.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      first.process.kill('SIGTERM');
      await first.exited;
    }
  });
});

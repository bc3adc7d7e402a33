/**
 * Rate limits (FACTS.md §6 "Rate limits"): a per-connection budget; 429 rate_limited with an
 * integer Retry-After; honouring Retry-After is enough to be served again. With REDIS_URL the
 * budget is shared by every instance on the same store. Connections are created fresh on every
 * run, so their budgets (keyed by connection id) never carry over between runs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { useServer } from '../helpers/useServer.js';
import { call, type HttpResult } from '../helpers/http.js';
import { addConnection, makeWorkspace } from '../helpers/factories.js';

// FOLIO_RATE_LIMIT=2 per second over a 1 s window: a budget of 2 requests per window.
const LIMITS = { FOLIO_RATE_LIMIT: '2', FOLIO_RATE_LIMIT_WINDOW: '1' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function burst(server: TestServer, token: string, n: number): Promise<HttpResult<any>[]> {
  return Promise.all(Array.from({ length: n }, () => call<any>(server.url, 'GET', '/v1/users/me', { token })));
}

function assertRateLimited(res: HttpResult<any>): number {
  assert.equal(res.status, 429);
  assert.equal(res.body.object, 'error');
  assert.equal(res.body.code, 'rate_limited');
  assert.equal(res.body.status, 429);
  assert.equal(res.headers.get('x-request-id'), res.body.request_id);
  const retryAfter = res.headers.get('retry-after');
  assert.match(retryAfter ?? '', /^[1-9][0-9]*$/, `Retry-After is an integer number of seconds, was ${retryAfter}`);
  // The message names the same wait as the header, not "a few minutes".
  const seconds = Number(retryAfter);
  assert.equal(res.body.message, `You have been rate limited. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
  return seconds;
}

describe('rate limits', () => {
  const { server, fx } = useServer({ env: LIMITS });

  test('a burst is answered 429 with Retry-After; after waiting that long, requests succeed again', async () => {
    const results = await burst(server, fx.token, 8);
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status !== 200);
    assert.ok(ok.length >= 1 && ok.length <= 4, `the budget of 2 per window lets a few through (window edges), got ${ok.length}`);
    assert.ok(limited.length >= 4);
    const waits = limited.map(assertRateLimited);
    assert.ok(Math.max(...waits) <= 2, `Retry-After stays within the window, got ${waits}`);
    await sleep(Math.max(...waits) * 1000);
    const again = await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(again.status, 200);
  });

  test('limits are per connection: another connection is unaffected', async () => {
    const other = await addConnection(server, fx.workspaceId, ['read_content']);
    const first = await burst(server, fx.token, 6);
    assert.ok(first.some((r) => r.status === 429));
    const res = await call(server.url, 'GET', '/v1/users/me', { token: other.token });
    assert.equal(res.status, 200);
  });

  test('errors refused before authentication do not spend anyone’s budget; the admin plane is not limited', async () => {
    for (let i = 0; i < 6; i++) {
      assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: 'folio_unknown' })).status, 401);
      assert.equal((await call(server.url, 'GET', '/healthz')).status, 200);
    }
    for (let i = 0; i < 6; i++) {
      const res = await call(server.url, 'POST', '/admin/v1/workspaces', { token: server.adminToken, version: null, body: { name: `w${i}` } });
      assert.equal(res.status, 200);
    }
  });
});

describe('rate limits shared through Redis', () => {
  const skip = process.env.REDIS_URL ? false : 'REDIS_URL is unset: the shared budget needs a Redis server (CI sets REDIS_URL)';

  test('two instances on the same store share one budget', { skip }, async () => {
    // A budget of 5 over 5 s, so the calls below surely fall in one window.
    const shared = { FOLIO_RATE_LIMIT: '1', FOLIO_RATE_LIMIT_WINDOW: '5' };
    const first = await startTestServer(shared);
    // The second instance opens the same store: the same SQLite file, or the same database.
    const second = await startTestServer({ ...shared, FOLIO_DATA_DIR: first.dataDir });
    try {
      const fx = await makeWorkspace(first);
      for (let i = 0; i < 5; i++) {
        const res = await call(first.url, 'GET', '/v1/users/me', { token: fx.token });
        assert.equal(res.status, 200, `call ${i + 1} of the budget`);
      }
      // The second instance has never seen this connection, yet its budget is spent.
      const refused = await call<any>(second.url, 'GET', '/v1/users/me', { token: fx.token });
      const retryAfter = assertRateLimited(refused);
      assert.ok(retryAfter <= 5);
      // Another connection is still served by both instances.
      const other = await addConnection(first, fx.workspaceId, ['read_content']);
      assert.equal((await call(second.url, 'GET', '/v1/users/me', { token: other.token })).status, 200);
      assert.equal((await call(first.url, 'GET', '/v1/users/me', { token: other.token })).status, 200);
    } finally {
      await second.close();
      await first.close();
    }
  });

  test('an unreachable Redis falls back to per-process limits instead of failing requests', async () => {
    // Nothing listens on port 1: the shared budget cannot be read, and requests are still served,
    // counted in this process's memory (docs/decisions.md "Overload and outages").
    const server = await startTestServer({ FOLIO_RATE_LIMIT: '1', FOLIO_RATE_LIMIT_WINDOW: '1', REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const fx = await makeWorkspace(server);
      const statuses = (await burst(server, fx.token, 6)).map((r) => r.status);
      assert.equal(statuses.filter((status) => status === 200).length, 1, String(statuses));
      assert.equal(statuses.filter((status) => status === 429).length, 5, String(statuses));
    } finally {
      await server.close();
    }
  });
});

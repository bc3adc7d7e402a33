/**
 * Faults on demand (issue 26 item 4): set through the admin plane, they answer matching `/v1`
 * requests with the registry's error body or add latency, for `count` requests or a `ratio` of
 * them; never on /admin. The official SDK's retries are then exercised against them.
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client, LogLevel } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';

type Json = Record<string, any>;

describe('faults on demand', () => {
  const { server, fx } = useServer();
  const adminCall = (method: string, path: string, body?: unknown) =>
    call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });
  const me = (token = fx.token) => call<Json>(server.url, 'GET', '/v1/users/me', { token });

  afterEach(async () => {
    await admin(server, 'DELETE', '/faults');
  });

  test('a 503 fault answers the next `count` matching requests with the registry body, then stops', async () => {
    const fault = await admin(server, 'POST', '/faults', { path: '/v1/users', status: 503, count: 2 });
    assert.equal(fault.object, 'fault');
    assert.equal(fault.status, 503);
    assert.equal(fault.hits, 0);
    for (let i = 0; i < 2; i++) {
      const answer = await me();
      assert.equal(answer.status, 503);
      assert.equal(answer.body.object, 'error');
      assert.equal(answer.body.code, 'service_unavailable');
      assert.equal(typeof answer.body.request_id, 'string');
    }
    assert.equal((await me()).status, 200);
    assert.deepEqual((await admin(server, 'GET', '/faults')).results, []);
  });

  test('matchers: method exactly, path as a prefix, connection by id', async () => {
    const other = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', '/faults', { connection_id: other.id, method: 'GET', path: '/v1/users/me', status: 500 });
    assert.equal((await me()).status, 200, 'another connection is not affected');
    const hit = await me(other.token);
    assert.equal(hit.status, 500);
    assert.equal(hit.body.code, 'internal_server_error');
    const search = await call<Json>(server.url, 'POST', '/v1/search', { token: other.token, body: {} });
    assert.equal(search.status, 200, 'another path is not affected');
    const listed = await admin(server, 'GET', '/faults');
    assert.equal(listed.results.length, 1);
    assert.equal(listed.results[0].hits, 1);
  });

  test('429 carries Retry-After and a message that agrees; 409, 504 and 529 answer their codes; 502 as a proxy does', async () => {
    await admin(server, 'POST', '/faults', { status: 429, retry_after: 7, count: 1 });
    const limited = await me();
    assert.equal(limited.status, 429);
    assert.equal(limited.body.code, 'rate_limited');
    assert.equal(limited.headers.get('retry-after'), '7');
    assert.match(limited.body.message, /7 seconds/);
    for (const [status, code] of [
      [409, 'conflict_error'],
      [504, 'gateway_timeout'],
      [529, 'service_overload'],
    ] as const) {
      await admin(server, 'POST', '/faults', { status, count: 1 });
      const answer = await me();
      assert.equal(answer.status, status);
      assert.equal(answer.body.code, code);
    }
    await admin(server, 'POST', '/faults', { status: 502, count: 1 });
    const gateway = await me();
    assert.equal(gateway.status, 502);
    assert.equal(gateway.body, 'Bad Gateway');
  });

  test('latency alone delays the answer and lets it through', async () => {
    await admin(server, 'POST', '/faults', { latency_ms: 300, count: 1 });
    const started = performance.now();
    const answer = await me();
    assert.equal(answer.status, 200);
    assert.ok(performance.now() - started >= 290, 'the answer waited');
  });

  test('ratio: about that share of matching requests fail', async () => {
    await admin(server, 'POST', '/faults', { status: 500, ratio: 0.5 });
    let failed = 0;
    for (let i = 0; i < 60; i++) if ((await me()).status === 500) failed++;
    assert.ok(failed > 10 && failed < 50, `${failed} of 60 failed`);
  });

  test('delete one fault, or all of them', async () => {
    const a = await admin(server, 'POST', '/faults', { status: 500 });
    await admin(server, 'POST', '/faults', { status: 503 });
    const removed = await admin(server, 'DELETE', `/faults/${a.id}`);
    assert.equal(removed.id, a.id);
    assert.equal((await adminCall('DELETE', `/faults/${a.id}`)).status, 404);
    assert.equal((await admin(server, 'DELETE', '/faults')).deleted, 1);
    assert.equal((await me()).status, 200);
  });

  test('a fault aimed at /admin, without an effect, or with bad fields is refused with 400 naming the field', async () => {
    const cases: [Json, RegExp][] = [
      [{ path: '/admin/v1/workspaces', status: 500 }, /body\.path/],
      [{ path: '/v1/users' }, /body\.status/],
      [{ status: 418 }, /body\.status/],
      [{ status: 500, ratio: 2 }, /body\.ratio/],
      [{ status: 500, count: 0 }, /body\.count/],
      [{ status: 500, method: 'FETCH' }, /body\.method/],
      [{ status: 500, colour: 'red' }, /colour/],
    ];
    for (const [body, message] of cases) {
      const answer = await adminCall('POST', '/faults', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, 'validation_error');
      assert.match(answer.body.message, message);
    }
    // The admin plane itself is never faulted, whatever is set.
    await admin(server, 'POST', '/faults', { status: 503 });
    assert.equal((await adminCall('GET', '/faults')).status, 200);
  });

  test('the official SDK retries a 429 and a 529 and succeeds', async () => {
    const logs: string[] = [];
    const notion = new Client({
      auth: fx.token,
      baseUrl: server.url,
      logLevel: LogLevel.INFO,
      logger: (_level, message) => logs.push(message),
      retry: { maxRetries: 2, initialRetryDelayMs: 10, maxRetryDelayMs: 50 },
    });
    await admin(server, 'POST', '/faults', { path: '/v1/users/me', status: 429, retry_after: 0, count: 1 });
    await admin(server, 'POST', '/faults', { path: '/v1/users/me', status: 529, count: 1 });
    const bot = await notion.users.me({});
    assert.equal(bot.type, 'bot');
    assert.equal(logs.filter((m) => m === 'retrying request').length, 2);
    const attempts = await admin(server, 'GET', `/requests?connection_id=${fx.connection.id}&limit=3`);
    assert.deepEqual(
      attempts.results.map((r: Json) => r.status),
      [200, 529, 429],
    );

    // More faults than retries: the SDK gives up with the service's error.
    await admin(server, 'POST', '/faults', { path: '/v1/users/me', status: 529, count: 5 });
    await assert.rejects(notion.users.me({}), (error: unknown) => error instanceof APIResponseError && error.code === APIErrorCode.ServiceOverload);
  });
});

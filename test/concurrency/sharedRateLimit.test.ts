/**
 * Issue 29 item 6: with REDIS_URL, a connection's rate limit is one budget however its requests
 * are spread over instances: two processes on one store (separate processes, not two servers in
 * this one, so nothing in memory is shared) count in the same Redis budget, and each refuses past
 * it with the spec's 429 body and an integer Retry-After. Budgets are keyed by connection id, and
 * every connection here is new, so nothing of other files' (or runs') counts is seen, and nothing
 * in Redis is flushed.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addConnection } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';
import { useTwoInstances } from './instances.js';

type Json = Record<string, any>;

// 0.5 a second over a 20 s window: a budget of 10, in a window far longer than the calls below take.
const BUDGET = 10;
const WINDOW_SECONDS = 20;
const skip = process.env.REDIS_URL ? false : 'REDIS_URL is unset: the shared budget needs a Redis server (CI sets REDIS_URL)';

function assertRateLimited(res: HttpResult<Json>, where: string): void {
  assert.equal(res.status, 429, `${where}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body.object, 'error');
  assert.equal(res.body.status, 429);
  assert.equal(res.body.code, 'rate_limited');
  assert.equal(res.headers.get('x-request-id'), res.body.request_id);
  const retryAfter = res.headers.get('retry-after') ?? '';
  assert.match(retryAfter, /^[1-9][0-9]*$/, `${where}: Retry-After is whole seconds, was ${retryAfter}`);
  assert.ok(Number(retryAfter) <= WINDOW_SECONDS, `${where}: Retry-After ${retryAfter} is past the window`);
  const seconds = Number(retryAfter);
  assert.equal(res.body.message, `You have been rate limited. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`);
}

describe('rate limits shared through Redis by two processes', { skip, timeout: 90_000 }, () => {
  const { servers, fx } = useTwoInstances({
    FOLIO_RATE_LIMIT: String(BUDGET / WINDOW_SECONDS),
    FOLIO_RATE_LIMIT_WINDOW: String(WINDOW_SECONDS),
    REDIS_URL: process.env.REDIS_URL ?? '',
  });
  const usersMe = (instance: number, token: string) => call<Json>(servers[instance].url, 'GET', '/v1/users/me', { token });

  test('requests alternating between the instances spend one budget; past it both refuse', async () => {
    const connection = await addConnection(servers[0], fx.workspaceId, ['read_content']);
    for (let i = 0; i < BUDGET; i++) {
      const res = await usersMe(i % 2, connection.token);
      assert.equal(res.status, 200, `call ${i + 1} of ${BUDGET}, on instance ${(i % 2) + 1}: ${JSON.stringify(res.body)}`);
    }
    // Each instance has served only half the budget, yet neither serves more.
    assertRateLimited(await usersMe(0, connection.token), 'instance 1');
    assertRateLimited(await usersMe(1, connection.token), 'instance 2');
    // Another connection's budget is its own, on both.
    assert.equal((await usersMe(1, fx.token)).status, 200);
    assert.equal((await usersMe(0, fx.token)).status, 200);
  });

  test('a burst split over both instances at once is served exactly the budget', async () => {
    const connection = await addConnection(servers[0], fx.workspaceId, ['read_content']);
    const perInstance = BUDGET + 2;
    const results = await Promise.all(
      Array.from({ length: 2 * perInstance }, (_, i) => usersMe(i % 2, connection.token).then((res) => ({ res, instance: i % 2 }))),
    );
    const served = results.filter((r) => r.res.status === 200);
    // Counted apart, each instance would have served its whole share (2 × budget in all).
    assert.equal(served.length, BUDGET, `statuses: ${results.map((r) => r.res.status)}`);
    for (const { res, instance } of results.filter((r) => r.res.status !== 200)) assertRateLimited(res, `instance ${instance + 1}`);
    for (const instance of [0, 1])
      assert.ok(
        results.some((r) => r.instance === instance && r.res.status === 429),
        `instance ${instance + 1} refused none`,
      );
  });
});

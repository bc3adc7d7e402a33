/**
 * Issue 12, item 8: the test clock. With FOLIO_TEST_CLOCK=1, `POST /admin/v1/clock` fixes the
 * server's time and every time a client can see follows it: created and edited times, formulas
 * reading now(), a verification's default date, a hosted file's expiry. Without the variable the
 * paths do not exist.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call, type HttpResult } from '../helpers/http.js';
import { makeSharedPage } from '../helpers/factories.js';
import { loadConfig } from '../../src/config.js';
import { expectValidation, ok, text } from '../content/helpers.js';
import type { TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

function clockCall(server: TestServer, method: string, body?: unknown, token: string | null = server.adminToken): Promise<HttpResult<Json>> {
  return call<Json>(server.url, method, '/admin/v1/clock', { token, version: null, body });
}

async function fixClock(server: TestServer, now: string | null): Promise<Json> {
  const res = await clockCall(server, 'POST', { now });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Within a minute of the real time: what the API shows is cut to the minute. */
function nearRealTime(iso: string, what: string): void {
  assert.ok(Math.abs(Date.parse(iso) - Date.now()) < 120_000, `${what}: ${iso} should be about now`);
}

describe('test clock: absent without FOLIO_TEST_CLOCK', () => {
  const { server } = useServer();

  test('GET and POST /admin/v1/clock answer as any unknown path', async () => {
    const unknown = await call<Json>(server.url, 'GET', '/admin/v1/nope', { token: server.adminToken, version: null });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { now: '2031-04-05T06:07:00Z' }],
      ['POST', { now: null }],
    ] as const) {
      for (const token of [server.adminToken, null]) {
        const res = await clockCall(server, method, body, token);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.code, 'invalid_request_url');
        assert.equal(res.body.message, unknown.body.message);
      }
    }
  });

  test('FOLIO_TEST_CLOCK is 1 or 0', () => {
    assert.equal(loadConfig({ FOLIO_TEST_CLOCK: '1' }).testClock, true);
    assert.equal(loadConfig({ FOLIO_TEST_CLOCK: '0' }).testClock, false);
    assert.equal(loadConfig({}).testClock, false);
    assert.throws(() => loadConfig({ FOLIO_TEST_CLOCK: 'true' }), /FOLIO_TEST_CLOCK must be 1 or 0/);
  });
});

describe('test clock: with FOLIO_TEST_CLOCK=1', () => {
  const { server, fx } = useServer({ env: { FOLIO_TEST_CLOCK: '1' } });
  const FIXED = '2031-04-05T06:07:00.000Z';
  const LATER = '2032-01-02T03:04:00.000Z';
  let root: Json;
  let source: string;
  before(async () => {
    root = await makeSharedPage(server, fx);
    const database = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Clocked'),
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Now: { formula: { expression: 'now()' } },
          Verified: { verification: {} },
          Attachments: { files: {} },
        },
      },
    });
    source = database.data_sources[0].id;
  });

  test('GET answers the system clock until the time is fixed', async () => {
    const res = await clockCall(server, 'GET');
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'clock');
    assert.equal(res.body.fixed, false);
    nearRealTime(res.body.now, 'the unfixed clock');
  });

  test('the admin token is required', async () => {
    for (const token of [null, fx.token]) {
      const res = await clockCall(server, 'POST', { now: FIXED }, token);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
    }
    assert.equal((await clockCall(server, 'GET')).body.fixed, false);
  });

  test('a fixed time stays fixed, and an offset is read as the instant it names', async () => {
    assert.deepEqual(await fixClock(server, '2031-04-05T08:07:00.5+02:00'), { object: 'clock', now: '2031-04-05T06:07:00.500Z', fixed: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual((await clockCall(server, 'GET')).body, { object: 'clock', now: '2031-04-05T06:07:00.500Z', fixed: true });
    assert.deepEqual(await fixClock(server, FIXED), { object: 'clock', now: FIXED, fixed: true });
  });

  test('pages, formulas reading now(), verifications and file expiries follow the fixed time', async () => {
    await fixClock(server, FIXED);
    const plain = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('plain') } } });
    assert.equal(plain.created_time, FIXED);
    assert.equal(plain.last_edited_time, FIXED);

    const page = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: source },
      properties: {
        Name: { title: text('row') },
        Verified: { verification: { state: 'verified' } },
        Attachments: { files: [{ name: 'a.txt', file: { url: 'https://example.com/a.txt' } }] },
      },
    });
    assert.equal(page.created_time, FIXED);
    assert.equal(page.properties.Now.formula.date.start, FIXED);
    assert.equal(page.properties.Verified.verification.date.start, FIXED);
    assert.equal(page.properties.Attachments.files[0].file.expiry_time, '2031-04-05T07:07:00.000Z');

    const read = await ok(server, fx, 'GET', `/v1/pages/${page.id}`);
    assert.equal(read.properties.Now.formula.date.start, FIXED);
    const item = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${read.properties.Now.id}`);
    assert.equal(item.formula.date.start, FIXED);

    // now() is recomputed at every read: moving the clock moves it, with no write of the page.
    await fixClock(server, LATER);
    const later = await ok(server, fx, 'GET', `/v1/pages/${page.id}`);
    assert.equal(later.properties.Now.formula.date.start, LATER);
    assert.equal(later.last_edited_time, FIXED);
    const found = await ok(server, fx, 'POST', '/v1/search', { query: 'row', filter: { property: 'object', value: 'page' } });
    assert.equal(found.results.find((r: Json) => r.id === page.id)?.properties.Now.formula.date.start, LATER);

    const edited = await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { properties: { Name: { title: text('row, edited') } } });
    assert.equal(edited.last_edited_time, LATER);
    assert.equal(edited.created_time, FIXED);
  });

  test('{now: null} returns to the system clock', async () => {
    await fixClock(server, FIXED);
    const released = await fixClock(server, null);
    assert.equal(released.object, 'clock');
    assert.equal(released.fixed, false);
    nearRealTime(released.now, 'the released clock');
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source }, properties: { Name: { title: text('real') } } });
    nearRealTime(page.created_time, 'created_time');
    nearRealTime(page.properties.Now.formula.date.start, 'now()');
    assert.equal((await clockCall(server, 'GET')).body.fixed, false);
  });

  test('a body that is not {now: date-time | null} is a validation_error naming now', async () => {
    for (const body of [{}, { now: 'tomorrow' }, { now: 5 }, { now: '2031-04-05' }, { now: '2031-04-05T06:07:00' }, { now: '2031-04-05T23:59:60Z' }]) {
      const res = await clockCall(server, 'POST', body);
      expectValidation(res, 'body.now');
    }
    expectValidation(await clockCall(server, 'POST', { now: null, later: true }), 'body.later');
    assert.equal((await clockCall(server, 'GET')).body.fixed, false, 'a refused body leaves the clock as it was');
  });
});

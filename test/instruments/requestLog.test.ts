/**
 * The request log (issue 26 item 5) and the metrics (item 6): the last N `/v1` requests with
 * their connection, version, status, duration and error code, listed and streamed through the
 * admin plane; Prometheus text at /metrics with requests by route, job queue depth and durations,
 * process metrics, off the rate limit, optionally behind a token.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok } from '../content/helpers.js';
import { PNG } from '../fileUploads/helpers.js';

type Json = Record<string, any>;

/** The value of one sample line of Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const parts = inside.split(',');
    if (wanted.every((w) => parts.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('request log', () => {
  const { server, fx } = useServer({ env: { FOLIO_REQUEST_LOG_SIZE: '5' } });

  test('records /v1 requests newest first with their facts; keeps only the last N; admin calls are not recorded', async () => {
    await call(server.url, 'GET', '/v1/users/me', { token: fx.token, version: '2025-09-03' });
    const missing = await call<Json>(server.url, 'GET', '/v1/pages/00000000-0000-4000-8000-000000000000', { token: fx.token });
    assert.equal(missing.status, 404);
    await call(server.url, 'GET', '/v1/users/me', { token: 'wrong' });
    await admin(server, 'GET', '/workspaces');

    const listed = await admin(server, 'GET', '/requests');
    assert.equal(listed.capacity, 5);
    const [unauthorized, notFound, meEntry] = listed.results;
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.connection_id, null);
    assert.equal(unauthorized.error_code, 'unauthorized');
    assert.equal(notFound.status, 404);
    assert.equal(notFound.error_code, 'object_not_found');
    assert.equal(notFound.route, '/v1/pages/:page_id');
    assert.equal(notFound.path, '/v1/pages/00000000-0000-4000-8000-000000000000');
    assert.equal(notFound.request_id, missing.headers.get('x-request-id'));
    assert.equal(meEntry.method, 'GET');
    assert.equal(meEntry.status, 200);
    assert.equal(meEntry.connection_id, fx.connection.id);
    assert.equal(meEntry.version, '2025-09-03');
    assert.equal(meEntry.error_code, null);
    assert.equal(typeof meEntry.duration_ms, 'number');
    assert.ok(listed.results.every((r: Json) => r.path.startsWith('/v1/')));

    for (let i = 0; i < 7; i++) await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    const full = await admin(server, 'GET', '/requests');
    assert.equal(full.results.length, 5);
    assert.ok(full.results.every((r: Json) => r.status === 200));
  });

  test('filters by connection and status, and limits', async () => {
    const other = await addConnection(server, fx.workspaceId, ['read_content']);
    await call(server.url, 'GET', '/v1/users/me', { token: other.token });
    await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    const theirs = await admin(server, 'GET', `/requests?connection_id=${other.id}`);
    assert.deepEqual(
      theirs.results.map((r: Json) => r.connection_id),
      [other.id],
    );
    assert.equal((await admin(server, 'GET', '/requests?limit=1')).results.length, 1);
    assert.equal((await admin(server, 'GET', '/requests?status=404')).results.length, 0);
    const bad = await call<Json>(server.url, 'GET', '/admin/v1/requests?limit=0', { token: server.adminToken, version: null });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /limit/);
  });

  test('the live stream sends each request as a server-sent event', async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/admin/v1/requests/stream?connection_id=${fx.connection.id}`, {
      headers: { authorization: `Bearer ${server.adminToken}` },
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = response.body!.getReader();
    const other = await addConnection(server, fx.workspaceId, ['read_content']);
    await call(server.url, 'GET', '/v1/users/me', { token: other.token });
    const sent = await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    let text = '';
    while (!text.includes('\n\nevent: request') && !/event: request[\s\S]*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const data = text.split('\n').find((line) => line.startsWith('data: '));
    assert.ok(data, text);
    const entry = JSON.parse(data.slice(6));
    assert.equal(entry.request_id, sent.headers.get('x-request-id'), 'only the connection asked for');
    assert.equal(entry.connection_id, fx.connection.id);
    const refused = await fetch(`${server.url}/admin/v1/requests/stream`);
    assert.equal(refused.status, 401);
  });
});

describe('metrics', () => {
  const { server, fx } = useServer({ env: { FOLIO_ALLOW_PRIVATE_URLS: '1' } });
  const scrape = () => scrapeMetrics(server.url);

  test('requests by route, method and status, with durations; process metrics', async () => {
    const before = (await scrape()).length;
    assert.ok(before > 0);
    await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    await call(server.url, 'GET', '/v1/pages/00000000-0000-4000-8000-000000000000', { token: fx.token });
    const text = await scrape();
    assert.equal(sample(text, 'folio_http_request_duration_seconds_count', { route: '/v1/users/me', method: 'GET', status: '200' }), 1);
    assert.ok(sample(text, 'folio_http_request_duration_seconds_bucket', { route: '/v1/users/me', method: 'GET', status: '200', le: '+Inf' }) === 1);
    assert.ok((sample(text, 'folio_http_request_duration_seconds_count', { route: '/v1/pages/:page_id', method: 'GET', status: '404' }) ?? 0) >= 1);
    assert.match(text, /^folio_process_cpu_seconds_total /m);
    assert.match(text, /^folio_nodejs_eventloop_lag_seconds /m);
  });

  test('job queue depth by kind and state, and job durations by kind and outcome', async () => {
    const host = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      response.end(request.method === 'HEAD' ? undefined : PNG);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}/photo.png`;
      const upload = await ok(server, fx, 'POST', '/v1/file_uploads', { mode: 'external_url', external_url: url, filename: 'photo.png' });
      for (let i = 0; i < 100; i++) {
        const now = await ok(server, fx, 'GET', `/v1/file_uploads/${upload.id}`);
        if (now.status !== 'pending') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      host.close();
    }
    const text = await scrape();
    assert.equal(
      sample(text, 'folio_job_duration_seconds_count', { kind: 'file_import', outcome: 'done' }),
      1,
      text
        .split('\n')
        .filter((l) => l.includes('job'))
        .join('\n'),
    );
    assert.match(text, /^# TYPE folio_jobs gauge/m);
    assert.match(text, /^# TYPE folio_job_failures_total counter/m);
  });
});

async function scrapeMetrics(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
  return response.text();
}

describe('metrics and the rate limit', () => {
  const { server, fx } = useServer({ env: { FOLIO_RATE_LIMIT: '1', FOLIO_RATE_LIMIT_WINDOW: '1' } });

  test('scrapes are not counted against the /v1 rate limit', async () => {
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 200);
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 429);
    for (let i = 0; i < 5; i++) await scrapeMetrics(server.url);
    const text = await scrapeMetrics(server.url);
    assert.equal(sample(text, 'folio_http_request_duration_seconds_count', { route: '/v1/users/me', method: 'GET', status: '429' }), 1);
  });
});

describe('metrics behind a token', () => {
  const { server } = useServer({ env: { FOLIO_METRICS_TOKEN: 'scrape-secret' } });

  test('FOLIO_METRICS_TOKEN: refused without it, served with it', async () => {
    const refused = await fetch(`${server.url}/metrics`);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as Json).code, 'unauthorized');
    const served = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer scrape-secret' } });
    assert.equal(served.status, 200);
    assert.match(await served.text(), /folio_http_request_duration_seconds/);
  });
});

describe('metrics and the request log turned off', () => {
  const { server, fx } = useServer({ env: { FOLIO_METRICS: '0', FOLIO_REQUEST_LOG_SIZE: '0' } });

  test('FOLIO_METRICS=0: no /metrics route; FOLIO_REQUEST_LOG_SIZE=0: the log keeps nothing; the API answers as before', async () => {
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 200);
    // Answered as any path the server does not have.
    const metrics = await fetch(`${server.url}/metrics`);
    const unknown = await fetch(`${server.url}/no-such-path`);
    assert.equal(metrics.status, unknown.status);
    assert.equal(((await metrics.json()) as Json).code, ((await unknown.json()) as Json).code);
    assert.deepEqual((await admin(server, 'GET', '/requests')).results, []);
  });
});

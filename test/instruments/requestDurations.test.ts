import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Histogram, Registry } from 'prom-client';
import { RequestDurations } from '../../src/instruments/requestDurations.js';

// /metrics serves prom-client's text exposition: the counted histogram must read as prom-client's would.
test('request durations render exactly as prom-client’s Histogram renders the same observations', async () => {
  const theirs = new Registry();
  const ours = new Registry();
  const histogram = new Histogram({
    name: 'folio_http_request_duration_seconds',
    help: 'Requests answered, by route pattern, method and status, with their duration.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [theirs],
  });
  const durations = new RequestDurations(ours);
  const observations: [string, string, number, number][] = [
    ['/v1/users/me', 'GET', 200, 0.0004],
    ['/v1/users/me', 'GET', 200, 0.001],
    ['/v1/users/me', 'GET', 200, 0.0011],
    ['/v1/pages/:page_id', 'GET', 404, 12],
    ['/v1/pages/:page_id', 'GET', 404, 0.3],
    ['unmatched', 'POST', 400, 10],
  ];
  for (const [route, method, status, seconds] of observations) {
    histogram.observe({ route, method, status: String(status) }, seconds);
    durations.observe(route, method, status, seconds);
  }
  assert.equal(await ours.metrics(), await theirs.metrics());
});

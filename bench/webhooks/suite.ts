import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { median } from '../lib/compare.js';
import type { Suite } from '../lib/suite.js';
import { startFolioServer } from '../lib/folio.js';
import { buildProject } from '../lib/processes.js';

const WRITES_PER_ROUND = 300;
const WARMUP_WRITES = 50;
const EVENTS = 2000;
const WRITERS = 8;
const TARGET_RATIO = 1.1;

/** A receiver that answers 200 at once and counts events; the handshake's token is kept for verifying. */
async function startReceiver() {
  let events = 0;
  let token: string | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { verification_token?: string };
      if (body.verification_token) token = body.verification_token;
      else events++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    events: () => events,
    token: () => token,
    forgetToken: () => {
      token = null;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Webhooks (issue 27): a write's p50 latency with no subscription and with one active one (target:
 * under 10% more), alternating rounds; and how many events per second reach a local receiver when
 * 2,000 writes arrive from 8 writers at once (first write sent → last event received).
 */
export const suite: Suite = {
  name: 'webhooks',
  description: 'write latency with and without an active webhook subscription; events delivered per second',
  async run(options) {
    if (options.build) await buildProject();
    const folio = await startFolioServer({ profile: options.profile, entry: options.folioEntry });
    const receiver = await startReceiver();
    try {
      const workspace = await folio.admin('POST', '/workspaces', { name: 'Bench' });
      const user = await folio.admin('POST', `/workspaces/${workspace.id}/users`, { name: 'Ada', email: 'ada@example.com' });
      const connection = await folio.admin('POST', `/workspaces/${workspace.id}/connections`, {
        name: 'Bench',
        kind: 'personal',
        user_id: user.id,
        capabilities: ['read_content', 'update_content', 'insert_content', 'read_comments'],
      });
      const parent = await folio.admin('POST', `/workspaces/${workspace.id}/pages`, { title: 'Parent' });
      await folio.admin('POST', `/connections/${connection.id}/grants`, { object_id: parent.id });
      const headers = { authorization: `Bearer ${connection.token}`, 'Notion-Version': '2026-03-11', 'content-type': 'application/json' };
      const body = JSON.stringify({ parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: 'Row' } }] } } });
      const write = async () => {
        const started = performance.now();
        const res = await fetch(`${folio.url}/v1/pages`, { method: 'POST', headers, body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`POST /v1/pages answered ${res.status}`);
        return performance.now() - started;
      };
      const p50Of = async () => {
        for (let i = 0; i < WARMUP_WRITES; i++) await write();
        const samples: number[] = [];
        for (let i = 0; i < WRITES_PER_ROUND; i++) samples.push(await write());
        // The server's own time (the admin request log's duration_ms): what the bench process's own
        // work (it is also the receiver) and the client's clock do not touch.
        const logged = await folio.admin('GET', `/requests?connection_id=${connection.id}&limit=${WRITES_PER_ROUND}`);
        const server = (logged.results as { duration_ms: number }[]).map((r) => r.duration_ms);
        return { p50: median(samples), p99: [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.99)], serverP50: median(server) };
      };
      const subscribe = async () => {
        receiver.forgetToken();
        const created = await folio.admin('POST', '/webhooks', { connection_id: connection.id, url: receiver.url });
        await until(() => receiver.token() !== null, 30_000, 'the handshake');
        await folio.admin('POST', `/webhooks/${created.id}/verify`, { verification_token: receiver.token() });
        return created.id as string;
      };
      type Round = { p50: number; p99: number; serverP50: number };
      const none: Round[] = [];
      const one: Round[] = [];
      let subscriptionId: string | null = null;
      for (let round = 0; round < options.rounds; round++) {
        if (subscriptionId) await folio.admin('DELETE', `/webhooks/${subscriptionId}`);
        subscriptionId = null;
        none.push(await p50Of());
        subscriptionId = await subscribe();
        one.push(await p50Of());
      }
      // Throughput: many writers at once, every event to the receiver.
      const before = receiver.events();
      const expected = before + EVENTS;
      const started = performance.now();
      let sent = 0;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          while (sent < EVENTS) {
            sent++;
            await write();
          }
        }),
      );
      await until(() => receiver.events() >= expected, 300_000, `${EVENTS} events`);
      const seconds = (performance.now() - started) / 1000;
      const perSecond = EVENTS / seconds;
      const row = (name: string, samples: Round[]) => ({
        name,
        runs: samples.map((s) => ({ requestsPerSecond: 1000 / s.p50, p50: s.p50, p99: s.p99, requests: WRITES_PER_ROUND })),
        medianRequestsPerSecond: median(samples.map((s) => 1000 / s.p50)),
        medianP50: median(samples.map((s) => s.p50)),
        medianP99: median(samples.map((s) => s.p99)),
      });
      const ratio = median(one.map((s) => s.p50)) / median(none.map((s) => s.p50));
      const serverP50 = (samples: Round[]) => median(samples.map((s) => s.serverP50));
      const serverRatio = serverP50(one) / serverP50(none);
      const perRound = (samples: Round[]) => samples.map((s) => s.serverP50.toFixed(2)).join(', ');
      // Each round with a subscription against the round without it just before: on a shared machine
      // the load drifts over minutes, so the median of these pairs is steadier than the ratio of medians.
      const pairedRatio = (p50: (s: Round) => number) => median(one.map((s, i) => p50(s) / p50(none[i])));
      return {
        store: folio.store,
        comparison: {
          targets: [
            row('POST /v1/pages, no subscription', none),
            row('POST /v1/pages, one active subscription', one),
            { name: `deliveries (${EVENTS} events, ${WRITERS} writers)`, runs: [], medianRequestsPerSecond: perSecond, medianP50: 0, medianP99: 0 },
          ],
          failures: [],
          options,
        },
        verdict:
          `write p50 with one subscription / without: ${(ratio * 100).toFixed(0)}% (target < ${(TARGET_RATIO * 100).toFixed(0)}%: ${ratio < TARGET_RATIO ? 'met' : 'NOT met'}); ` +
          `server-side p50 ${serverP50(one).toFixed(2)} / ${serverP50(none).toFixed(2)} ms: ${(serverRatio * 100).toFixed(0)}%; ` +
          `median of per-round ratios: ${(pairedRatio((s) => s.p50) * 100).toFixed(0)}% client, ${(pairedRatio((s) => s.serverP50) * 100).toFixed(0)}% server-side; ` +
          `${perSecond.toFixed(0)} events delivered per second`,
        notes: [
          `Writes are sequential on one connection (${WARMUP_WRITES} unmeasured, then ${WRITES_PER_ROUND} measured per round), rounds alternating no subscription / one active subscription; "requests/s" of those rows is 1000 / p50.`,
          `Server-side p50 (the admin request log's duration_ms of the same writes), per round: no subscription ${perRound(none)} ms; one subscription ${perRound(one)} ms.`,
          `Deliveries: ${EVENTS} page creations from ${WRITERS} concurrent writers, timed from the first write sent to the last event received by a local node:http receiver answering 200 (events/s in the requests/s column).`,
        ],
      };
    } finally {
      await receiver.stop();
      await folio.stop();
    }
  },
};

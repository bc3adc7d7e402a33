/**
 * Issue 27 acceptance line 2: SIGKILL of the server between commit and delivery loses no event.
 * The server runs as a child process (test/platform/childServer.ts) on a store that outlives it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startChildServer, type ChildServer } from '../platform/childServer.js';
import { admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { Receiver, subscribe } from './receiver.js';

type Json = Record<string, any>;

// Short leases: the next server takes over a killed one's job within seconds (its in-flight deliveries once their reservation passes).
const ENV = { FOLIO_JOB_LEASE_SECONDS: '2', FOLIO_JOB_POLL_MS: '100', FOLIO_WEBHOOK_AGGREGATION_MS: '0' };

describe('webhooks: a server killed between commit and delivery', () => {
  const receiver = new Receiver();
  let child: ChildServer;
  const logs: string[] = [];
  before(async () => {
    await receiver.start();
  });
  after(async () => {
    child.process.kill('SIGTERM');
    await child.exited;
    await receiver.stop();
  });

  test('events committed before SIGKILL, queued or mid-send, all arrive from the next server, once each', { timeout: 150_000 }, async () => {
    // No delivery workers: every event stays in the outbox until the kill.
    child = await startChildServer({ env: { ...ENV, FOLIO_WEBHOOK_WORKERS: '0' } });
    const server = { url: child.url, adminToken: child.adminToken, dataDir: child.dataDir } as TestServer;
    const fx = await makeWorkspace(server);
    const { token } = await subscribe(server, receiver, fx.connection.id);
    const parent = await makeSharedPage(server, fx);
    const create = async (name: string) => {
      const res = await call<Json>(child.url, 'POST', '/v1/pages', {
        token: fx.token,
        body: { parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: name } }] } } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const queued = [await create('a'), await create('b'), await create('c')];
    child.process.kill('SIGKILL');
    await child.exited;
    logs.push(child.stdout());

    // The next server delivers them; then one more page whose delivery the receiver holds (it hangs) when the server is killed again.
    child = await startChildServer({ port: child.port, dataDir: child.dataDir, env: { ...ENV, FOLIO_ADMIN_TOKEN: server.adminToken } });
    await receiver
      .waitFor((r) => queued.includes(r.body.entity?.id), 3, 30_000)
      .catch((error: Error) => {
        throw new Error(`${error.message}\n${child.stdout()}`);
      });
    // Delivery is at least once: a kill after the receiver answered but before the log says so sends again. Wait for the log.
    const { subscription: sub } = { subscription: (await admin(server, 'GET', '/webhooks')).results[0] as Json };
    for (let i = 0; i < 400; i++) {
      const log = (await admin(server, 'GET', `/webhooks/${sub.id}/deliveries`)).results as Json[];
      if (log.filter((d) => d.status === 'delivered').length === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    receiver.mode = 'hang';
    const midSend = await create('d');
    for (let i = 0; i < 200; i++) {
      const jobs = (await admin(server, 'GET', '/jobs?kind=webhook_delivery')).results as Json[];
      if (jobs.some((j) => j.subject_id === fx.workspaceId && j.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.process.kill('SIGKILL');
    await child.exited;
    logs.push(child.stdout());
    receiver.mode = 'up';
    child = await startChildServer({ port: child.port, dataDir: child.dataDir, env: { ...ENV, FOLIO_ADMIN_TOKEN: server.adminToken } });
    await receiver.waitFor((r) => r.body.entity?.id === midSend, 1, 45_000);

    const created = receiver.events().filter((r) => r.body.type === 'page.created');
    assert.deepEqual(
      created.map((r) => r.body.entity.id).sort(),
      [...queued, midSend].sort(),
      JSON.stringify(created.map((r) => [r.body.id, r.body.subscription_id, r.body.attempt_number])) + logs.join('\n') + child.stdout(),
    );
    await receiver.assertSigned(token);
  });
});

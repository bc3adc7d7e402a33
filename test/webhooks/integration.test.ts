/**
 * Issue 27 item 5, follow-up: a subscription per public integration hears every workspace where the
 * integration is installed, each event checked against that workspace's install; and a workspace
 * no subscription can hear records no outbox row and queues no delivery job.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';
import { makeIntegration, makePages, quiet } from '../oauth/helpers.js';
import { Receiver, subscribe } from './receiver.js';

type Json = Record<string, any>;

const ENV = { FOLIO_JOB_POLL_MS: '50', FOLIO_JOB_RETRY_MS: '50' };
const REDIRECT = 'https://acme.example/callback';

/** Installs the integration headlessly for the workspace's person, sharing `pageIds`. */
async function install(server: TestServer, integration: Json, fx: Fixture, pageIds: string[]): Promise<void> {
  const approved = await admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: fx.user.id, page_ids: pageIds });
  const sdk = new Client({ baseUrl: server.url, logger: quiet });
  await sdk.oauth.token({ client_id: integration.client_id, client_secret: integration.client_secret, grant_type: 'authorization_code', code: approved.code });
}

/** Renames a page through the workspace's own internal connection: one `page.properties_updated`. */
async function rename(server: TestServer, fx: Fixture, pageId: string, title: string): Promise<void> {
  const updated = await call<Json>(server.url, 'PATCH', `/v1/pages/${pageId}`, {
    token: fx.token,
    body: { properties: { title: { title: [{ text: { content: title } }] } } },
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
}

async function deliveryJobs(server: TestServer, workspaceId: string): Promise<Json[]> {
  const list = await admin(server, 'GET', `/jobs?kind=webhook_delivery&subject_id=${workspaceId}`);
  return list.results as Json[];
}

describe('webhooks: a subscription per public integration', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('bad input names the field: neither or both of connection_id and integration_id, an unknown integration', async () => {
    const integration = await makeIntegration(server, [REDIRECT], 'Lonely');
    const cases: [Json, RegExp][] = [
      [{ url: receiver.url }, /connection_id/],
      [{ url: receiver.url, connection_id: fx.connection.id, integration_id: integration.id }, /integration_id/],
      [{ url: receiver.url, integration_id: '00000000-0000-4000-8000-000000000000' }, /integration_id/],
      [{ url: receiver.url, integration_id: 'nope' }, /integration_id/],
    ];
    for (const [body, field] of cases) {
      const refused = await call<Json>(server.url, 'POST', '/admin/v1/webhooks', { token: server.adminToken, version: null, body });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'validation_error');
      assert.match(refused.body.message, field);
    }
  });

  test(
    'signed events from both workspaces where it is installed, never from a page not shared, nothing where it is not installed',
    { timeout: 40_000 },
    async () => {
      const other = await makeWorkspace(server, { name: 'Other workspace' });
      const stranger = await makeWorkspace(server, { name: 'Stranger workspace' });
      const pagesA = await makePages(server, fx);
      const pagesB = await makePages(server, other);
      const pagesC = await makePages(server, stranger);
      const integration = await makeIntegration(server, [REDIRECT]);
      await install(server, integration, fx, [pagesA.a]);
      await install(server, integration, other, [pagesB.b]);

      const before = receiver.requests.length;
      const created = await admin(server, 'POST', '/webhooks', { integration_id: integration.id, url: receiver.url });
      assert.equal(created.status, 'pending');
      assert.equal(created.integration_id, integration.id);
      assert.equal(created.connection_id, null);
      assert.equal(created.workspace_id, null);
      const [handshake] = await receiver.waitFor((r) => receiver.requests.indexOf(r) >= before && typeof r.body.verification_token === 'string');
      const token = handshake.body.verification_token as string;
      const verified = await admin(server, 'POST', `/webhooks/${created.id}/verify`, { verification_token: token });
      assert.equal(verified.status, 'active');

      // What it must not hear first, so the events it hears come after them in each workspace's job.
      await rename(server, fx, pagesA.c, 'A unshared');
      await rename(server, other, pagesB.a, 'B unshared');
      await rename(server, stranger, pagesC.a, 'C not installed');
      await rename(server, fx, pagesA.child, 'A shared child');
      await rename(server, other, pagesB.b, 'B shared');

      const heard = await receiver.waitFor((r) => r.body.type === 'page.properties_updated', 2);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const events = receiver.events();
      assert.deepEqual(events.map((e) => e.body.entity.id).sort(), [pagesA.child, pagesB.b].sort());
      const byEntity = new Map(heard.map((e) => [e.body.entity.id as string, e.body]));
      assert.equal(byEntity.get(pagesA.child)?.workspace_id, fx.workspaceId);
      assert.equal(byEntity.get(pagesB.b)?.workspace_id, other.workspaceId);
      assert.equal(byEntity.get(pagesB.b)?.workspace_name, 'Other workspace');
      for (const event of events) {
        assert.equal(event.body.integration_id, integration.id);
        assert.equal(event.body.subscription_id, created.id);
      }
      await receiver.assertSigned(token);
      // The stranger workspace has no listener: its write queued no delivery job.
      assert.deepEqual(await deliveryJobs(server, stranger.workspaceId), []);

      // An integration deleted takes its subscriptions with it.
      await admin(server, 'DELETE', `/integrations/${integration.id}`);
      const gone = await call<Json>(server.url, 'GET', `/admin/v1/webhooks/${created.id}`, { token: server.adminToken, version: null });
      assert.equal(gone.status, 404);
    },
  );
});

describe('webhooks: a workspace nobody listens to pays for no outbox', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('a write before any subscription queues no delivery job and reaches none created afterwards', { timeout: 30_000 }, async () => {
    const pages = await makePages(server, fx);
    await rename(server, fx, pages.a, 'Before anyone listened');
    assert.deepEqual(await deliveryJobs(server, fx.workspaceId), []);

    await subscribe(server, receiver, fx.connection.id);
    await rename(server, fx, pages.b, 'After');
    const [heard] = await receiver.waitFor((r) => r.body.type === 'page.properties_updated');
    assert.equal(heard.body.entity.id, pages.b);
    assert.equal((await deliveryJobs(server, fx.workspaceId)).length, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      receiver.events().map((e) => e.body.entity.id),
      [pages.b],
    );
  });
});

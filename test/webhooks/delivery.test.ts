/**
 * Issue 27 items 5–6: subscriptions, the handshake, signed deliveries from the outbox. Each event
 * type Folio emits arrives once, signed (the SDK's verifyWebhookSignature), with its entity and
 * authors; an unshared page's events never reach a connection that cannot see it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { Receiver, subscribe } from './receiver.js';

type Json = Record<string, any>;

const ENV = { FOLIO_JOB_POLL_MS: '50', FOLIO_WEBHOOK_AGGREGATION_MS: '150', FOLIO_JOB_RETRY_MS: '50' };

describe('webhooks: a page created through the API reaches a verified subscription, signed', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('handshake, verify, page.created', { timeout: 30_000 }, async () => {
    const { subscription, token } = await subscribe(server, receiver, fx.connection.id);
    const parent = await makeSharedPage(server, fx);
    const created = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: 'Hello hooks' } }] } } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [event] = await receiver.waitFor((r) => r.body.type === 'page.created');
    assert.deepEqual(event.body.entity, { id: created.body.id, type: 'page' });
    assert.deepEqual(event.body.authors, [{ id: fx.connection.bot_id, type: 'bot' }]);
    assert.equal(event.body.subscription_id, subscription.id);
    assert.equal(event.body.workspace_id, fx.workspaceId);
    assert.equal(event.body.attempt_number, 1);
    assert.deepEqual(event.body.data, { parent: { id: parent.id, type: 'page' } });
    await receiver.assertSigned(token);
    const log = await admin(server, 'GET', `/webhooks/${subscription.id}/deliveries`);
    assert.equal(log.results[0].status, 'delivered');
    assert.equal(log.results[0].response_code, 200);
  });
});

/**
 * Issue 27 items 5–6: subscriptions, the handshake, signed deliveries from the outbox. Each event
 * type Folio emits arrives once, signed (the SDK's verifyWebhookSignature), with its entity and
 * authors; an unshared page's events never reach a connection that cannot see it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
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
    // The log is written once the receiver answered: it may trail the receiver by a moment.
    let log = await admin(server, 'GET', `/webhooks/${subscription.id}/deliveries`);
    for (let i = 0; i < 100 && log.results[0]?.status !== 'delivered'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      log = await admin(server, 'GET', `/webhooks/${subscription.id}/deliveries`);
    }
    assert.equal(log.results[0].status, 'delivered');
    assert.equal(log.results[0].response_code, 200);
  });
});

describe('webhooks: a receiver that is down, then hangs, gets every event once it is back (test clock)', () => {
  const { server, fx } = useServer({ env: { ...ENV, FOLIO_TEST_CLOCK: '1', FOLIO_WEBHOOK_TIMEOUT_MS: '300' } });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('failed attempts are logged with their next retry; advancing the clock delivers them, in order per entity', { timeout: 40_000 }, async () => {
    const t0 = new Date('2030-01-01T00:00:00.000Z');
    await admin(server, 'POST', '/clock', { now: t0.toISOString() });
    const { subscription, token } = await subscribe(server, receiver, fx.connection.id);
    const parent = await makeSharedPage(server, fx);
    receiver.mode = 'down';
    const pages: Json[] = [];
    for (const name of ['one', 'two', 'three']) {
      const res = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        body: { parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: name } }] } } },
      });
      pages.push(res.body);
    }
    const renamed = await call<Json>(server.url, 'PATCH', `/v1/pages/${pages[0].id}`, {
      token: fx.token,
      body: { properties: { title: { title: [{ text: { content: 'uno' } }] } } },
    });
    assert.equal(renamed.status, 200);
    const logOf = async () => (await admin(server, 'GET', `/webhooks/${subscription.id}/deliveries`)).results as Json[];
    const waitLog = async (ok: (log: Json[]) => boolean) => {
      for (let i = 0; i < 300; i++) {
        const log = await logOf();
        if (ok(log)) return log;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`delivery log never got there: ${JSON.stringify(await logOf())}`);
    };
    // Three creations fail once; the rename waits behind its page's creation.
    let log = await waitLog((l) => l.length === 4 && l.filter((d) => d.attempt === 1).length === 3);
    for (const d of log.filter((x) => x.type === 'page.created')) {
      assert.equal(d.status, 'pending');
      assert.equal(d.response_code, 503);
      assert.equal(d.next_retry_time, new Date(t0.getTime() + 60_000).toISOString());
    }
    assert.equal(log.find((d) => d.type === 'page.properties_updated')!.attempt, 0);
    assert.equal(receiver.events().length, 0);

    // A minute later the receiver hangs: the attempts time out and are retried later still.
    receiver.mode = 'hang';
    await admin(server, 'POST', '/clock', { now: new Date(t0.getTime() + 61_000).toISOString() });
    log = await waitLog((l) => l.filter((d) => d.attempt === 2).length === 3);
    assert.match(log[0].error, /no answer within 300 ms/);
    assert.equal(log[0].response_code, null);

    receiver.mode = 'up';
    await admin(server, 'POST', '/clock', { now: new Date(t0.getTime() + 3600_000).toISOString() });
    await receiver.waitFor((r) => r.body.type !== undefined, 4);
    log = await waitLog((l) => l.every((d) => d.status === 'delivered'));
    const events = receiver.events();
    assert.deepEqual(
      events.filter((r) => r.body.entity.id === pages[0].id).map((r) => [r.body.type, r.body.attempt_number]),
      [
        ['page.created', 3],
        ['page.properties_updated', 1],
      ],
    );
    assert.equal(new Set(events.map((r) => r.body.id)).size, 4);
    await receiver.assertSigned(token);
  });
});

describe('webhooks: handshake retries, the test sender, bad input', () => {
  const { server, fx } = useServer({ env: ENV });
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('a handshake to a receiver that is down is retried until it answers', { timeout: 30_000 }, async () => {
    receiver.mode = 'down';
    const created = await admin(server, 'POST', '/webhooks', { connection_id: fx.connection.id, url: receiver.url });
    let jobs: Json[] = [];
    for (let i = 0; i < 200 && !(jobs[0]?.attempts >= 2); i++) {
      jobs = (await admin(server, 'GET', '/jobs?kind=webhook_handshake')).results.filter((j: Json) => j.subject_id === created.id);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(jobs[0].attempts >= 2, JSON.stringify(jobs));
    assert.match(jobs[0].last_error, /answered 503/);
    receiver.mode = 'up';
    const token = await receiver.verificationToken();
    assert.match(token, /^secret_/);
    const verified = await admin(server, 'POST', `/webhooks/${created.id}/verify`, { verification_token: token });
    assert.equal(verified.status, 'active');
    assert.ok(verified.verified_time);
    await admin(server, 'DELETE', `/webhooks/${created.id}`);
  });

  test('POST /webhooks/{id}/test sends a signed sample of the type asked for', async () => {
    const { subscription, token } = await subscribe(server, receiver, fx.connection.id);
    for (const type of ['comment.created', 'page.content_updated', 'file_upload.upload_failed', 'view.updated']) {
      const result = await admin(server, 'POST', `/webhooks/${subscription.id}/test`, { type });
      assert.equal(result.delivered, true);
      assert.equal(result.response_code, 200);
      const [event] = await receiver.waitFor((r) => r.body.id === result.event_id);
      assert.equal(event.body.type, type);
      assert.equal(event.body.subscription_id, subscription.id);
      assert.ok(event.body.entity.id);
    }
    await receiver.assertSigned(token);
  });

  test('GET, list, PATCH: event types any time, the URL only before verification', async () => {
    const { subscription } = await subscribe(server, receiver, fx.connection.id, { event_types: ['page.created'] });
    assert.deepEqual((await admin(server, 'GET', `/webhooks/${subscription.id}`)).event_types, ['page.created']);
    const patched = await admin(server, 'PATCH', `/webhooks/${subscription.id}`, { event_types: ['page.deleted', 'comment.created'] });
    assert.deepEqual(patched.event_types, ['page.deleted', 'comment.created']);
    const list = await admin(server, 'GET', '/webhooks?page_size=100');
    assert.ok(list.results.some((s: Json) => s.id === subscription.id));
    const moved = await call<Json>(server.url, 'PATCH', `/admin/v1/webhooks/${subscription.id}`, {
      token: server.adminToken,
      version: null,
      body: { url: 'http://127.0.0.1:9/elsewhere' },
    });
    assert.equal(moved.status, 400);
    assert.match(moved.body.message, /body\.url should not change after the subscription was verified/);
    const pending = await admin(server, 'POST', '/webhooks', { connection_id: fx.connection.id, url: 'http://127.0.0.1:9/nowhere' });
    const repointed = await admin(server, 'PATCH', `/webhooks/${pending.id}`, { url: receiver.url });
    assert.equal(repointed.url, receiver.url);
    await receiver.waitFor((r) => typeof r.body.verification_token === 'string', 2);
    assert.equal((await admin(server, 'DELETE', `/webhooks/${pending.id}`)).deleted, true);
    const gone = await call<Json>(server.url, 'GET', `/admin/v1/webhooks/${pending.id}`, { token: server.adminToken, version: null });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'object_not_found');
  });

  test('bad input is a validation_error naming the field', async () => {
    const refused = async (method: string, path: string, body: unknown, field: RegExp) => {
      const res = await call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'validation_error');
      assert.match(res.body.message, field);
    };
    const base = { connection_id: fx.connection.id, url: receiver.url };
    await refused('POST', '/webhooks', { ...base, event_types: ['page.exploded'] }, /body\.event_types\[0\]/);
    await refused('POST', '/webhooks', { ...base, url: 'ftp://example.com/hook' }, /body\.url should be an http or https URL/);
    await refused('POST', '/webhooks', { ...base, url: 'not a url' }, /body\.url should be an absolute http or https URL/);
    await refused('POST', '/webhooks', { ...base, connection_id: 'nope' }, /connection_id/);
    await refused('POST', '/webhooks', { ...base, connection_id: '00000000-0000-4000-8000-000000000000' }, /body\.connection_id should be a live connection/);
    await refused('POST', '/webhooks', { ...base, api_version: '2021-01-01' }, /body\.api_version/);
    const created = await admin(server, 'POST', '/webhooks', base);
    await refused(
      'POST',
      `/webhooks/${created.id}/verify`,
      { verification_token: 'secret_wrong' },
      /body\.verification_token should be the token the handshake sent/,
    );
    await refused('POST', `/webhooks/${created.id}/test`, { type: 'page.exploded' }, /body\.type/);
    await refused('PATCH', `/webhooks/${created.id}`, {}, /body/);
  });
});

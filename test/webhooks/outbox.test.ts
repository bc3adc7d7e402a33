/**
 * The outbox is transactional (../shared/STYLE.md "Events are written where the write is"): an
 * event recorded in a transaction that rolls back leaves nothing (no row, no delivery job), one in a
 * transaction that commits is delivered by the running server. Recorded here on a second connection
 * to the server's store, as a command does inside its own transaction.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useServer } from '../helpers/useServer.js';
import { useStore } from '../helpers/useStore.js';
import { makeSharedPage } from '../helpers/factories.js';
import { recordEvent } from '../../src/commands/events/recordEvent.js';
import type { AppContext } from '../../src/context.js';
import { Receiver, subscribe } from './receiver.js';

describe('webhooks: the outbox commits with the write or not at all', () => {
  const { server, fx } = useServer({ env: { FOLIO_JOB_POLL_MS: '50' } });
  const store = useStore(server);
  const receiver = new Receiver();
  before(() => receiver.start());
  after(() => receiver.stop());

  test('rolled back: no event and no delivery job; committed: delivered', { timeout: 30_000 }, async () => {
    await subscribe(server, receiver, fx.connection.id);
    const page = await makeSharedPage(server, fx);
    const ctx = { newId: randomUUID, jobs: { wake: () => undefined } } as unknown as AppContext;
    const caller = { workspaceId: fx.workspaceId, connectionId: fx.connection.id, botId: fx.connection.bot_id };
    const event = { type: 'page.locked', entity: { id: page.id, type: 'page' }, data: { parent: { id: fx.workspaceId, type: 'space' } } } as const;
    const at = new Date().toISOString();
    await assert.rejects(
      store.transaction(async (trx) => {
        await recordEvent(ctx, trx, caller, at, event);
        throw new Error('the write failed after recording its event');
      }),
      /the write failed/,
    );
    const rows = await store.db.selectFrom('webhook_events').selectAll().where('entity_id', '=', page.id).execute();
    assert.deepEqual(rows, []);
    const jobs = await store.db.selectFrom('jobs').selectAll().where('id', '=', `webhooks:${fx.workspaceId}`).execute();
    assert.deepEqual(jobs, []);

    await store.transaction((trx) => recordEvent(ctx, trx, caller, at, event));
    const [received] = await receiver.waitFor((r) => r.body.type === 'page.locked');
    assert.deepEqual(received.body.entity, { id: page.id, type: 'page' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.events().length, 1);
  });
});

import { type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Webhooks (issue 27 items 5–8): subscriptions, the transactional outbox of events, deliveries.
 *
 * - `webhook_subscriptions`: one receiver URL for a connection. `integration_id` stays null for now:
 *   it is where a subscription per public integration (migration 012's `integrations`) will point,
 *   so that can land without another table change; `connection_id` is nullable for the same reason.
 * - `webhook_events`: the outbox. Commands insert a row in their own transaction (no event for a
 *   write that rolled back, none lost for one that committed); `seq` orders them; the delivery
 *   job deletes a row once it turned it into deliveries (`dispatched` stays 0 while it waits).
 * - `webhook_deliveries`: one event (or several aggregated `*.content_updated` events) for one
 *   subscription, with its attempts: the delivery log the admin plane shows.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db).name === 'postgres';
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text')
    .addColumn('integration_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text')
    .addColumn('api_version', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verification_token', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('verified_time', 'text')
    .execute();
  await db.schema.createIndex('webhook_subscriptions_workspace').on('webhook_subscriptions').columns(['workspace_id', 'status']).execute();

  await db.schema
    .createTable('webhook_events')
    // A sequence, so events of one entity are delivered in the order their writes recorded them.
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text')
    .addColumn('authors', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The delivery job reads a workspace's undispatched events in order.
  await db.schema.createIndex('webhook_events_pending').on('webhook_events').columns(['workspace_id', 'dispatched', 'seq']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('authors', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_time', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('delivered_time', 'text')
    .execute();
  // Pending deliveries of a workspace, by subscription and entity in event order (the send loop).
  await db.schema
    .createIndex('webhook_deliveries_pending')
    .on('webhook_deliveries')
    .columns(['workspace_id', 'state', 'subscription_id', 'entity_id', 'event_seq'])
    .execute();
  // The delivery log of one subscription, newest first.
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['subscription_id', 'event_seq']).execute();
}

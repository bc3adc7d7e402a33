import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * Webhook subscriptions per public integration (issue 27 item 5, follow-up).
 *
 * - `webhook_subscriptions.workspace_id` becomes nullable: an integration's subscription hears every
 *   workspace where the integration is installed, so it belongs to none. SQLite cannot drop a NOT
 *   NULL, so the table is rebuilt there (it has no foreign keys in or out).
 * - `webhook_subscriptions_integration`: the subscriptions of an integration (fan-out, deletion).
 * - `integration_connections_workspace`: which integrations are installed in a workspace, the
 *   other half of the check every write makes before it records events (recordEvent).
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db).name === 'postgres') {
    await sql`ALTER TABLE webhook_subscriptions ALTER COLUMN workspace_id DROP NOT NULL`.execute(db);
  } else {
    await db.schema
      .createTable('webhook_subscriptions_014')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text')
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
    await sql`INSERT INTO webhook_subscriptions_014 SELECT id, workspace_id, connection_id, integration_id, url, event_types, api_version, status, verification_token, created_time, verified_time FROM webhook_subscriptions`.execute(
      db,
    );
    await db.schema.dropTable('webhook_subscriptions').execute();
    await db.schema.alterTable('webhook_subscriptions_014').renameTo('webhook_subscriptions').execute();
    await db.schema.createIndex('webhook_subscriptions_workspace').on('webhook_subscriptions').columns(['workspace_id', 'status']).execute();
  }
  await db.schema.createIndex('webhook_subscriptions_integration').on('webhook_subscriptions').columns(['integration_id', 'status']).execute();
  await db.schema.createIndex('integration_connections_workspace').on('integration_connections').columns(['workspace_id', 'integration_id']).execute();
}

import type { Kysely } from 'kysely';

/**
 * Public integrations and their OAuth install flow (issue 27 items 1–4, FACTS.md §10.9).
 *
 * - `integrations`: server-wide (a user of any workspace may install one); the client secret is
 *   stored as its SHA-256 only, like connection tokens. Its `id` is what webhook subscriptions
 *   name (issue 27 item 5), so it never changes; the secret rotates, the id and client_id do not.
 * - `sign_in_links` and `browser_sessions`: how a person signs in to the consent page. Both keep
 *   only hashes of what the browser holds.
 * - `oauth_codes`: an approved grant waiting for its token exchange: short-lived, used once.
 * - `integration_connections`: which integration a public connection was installed from (the
 *   connection row already names the approving user); `access_issued_time` is the current access
 *   token's `iat` for introspection.
 * - `oauth_refresh_tokens`: one live refresh token per connection; a refresh replaces it.
 *
 * No foreign keys: workspace deletion and the empty reset remove these rows explicitly.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sign_in_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_time', 'text')
    .execute();

  await db.schema
    .createTable('browser_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('page_ids', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    // 1 when the authorize request named the redirect_uri: the token request must then repeat it.
    .addColumn('redirect_uri_given', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_time', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_codes_integration').on('oauth_codes').columns(['integration_id']).execute();

  await db.schema
    .createTable('integration_connections')
    .addColumn('connection_id', 'text', (c) => c.primaryKey())
    .addColumn('integration_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('access_issued_time', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integration_connections_integration').on('integration_connections').columns(['integration_id', 'connection_id']).execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('integration_id', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('revoked_time', 'text')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_connection').on('oauth_refresh_tokens').columns(['connection_id']).execute();
}

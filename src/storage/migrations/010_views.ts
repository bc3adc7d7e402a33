import { randomUUID } from 'node:crypto';
import { type Kysely } from 'kysely';

/**
 * Database views and view queries (issue 25 item 4; FACTS.md §10.8).
 * - `database_views`: a database's tabs, in `position` order, and the widget views of dashboards
 *   (`dashboard_view_id` set). Filter, sorts, quick filters and configuration are JSON as the
 *   request gave them (after checks), null when unset.
 * - `view_queries`: a view query's whole result (page ids, JSON, at most 10,000), owned by the
 *   connection that ran it, until `expires_at` (15 minutes).
 * - Every existing database gets the table view "Default view" of its first data source, as
 *   `POST /v1/databases` now makes one (FACTS.md §10.8 8.4), so no database is left without a view.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('database_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('database_id', 'text', (c) => c.notNull())
    .addColumn('data_source_id', 'text')
    .addColumn('dashboard_view_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('filter', 'text')
    .addColumn('sorts', 'text')
    .addColumn('quick_filters', 'text')
    .addColumn('configuration', 'text')
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('last_edited_time', 'text', (c) => c.notNull())
    .addColumn('last_edited_by', 'text', (c) => c.notNull())
    .execute();
  // Listing by database reads its tabs in order; by data source, every view showing it.
  await db.schema.createIndex('database_views_of_database').on('database_views').columns(['database_id', 'position', 'id']).execute();
  await db.schema.createIndex('database_views_of_data_source').on('database_views').columns(['data_source_id', 'id']).execute();
  await db.schema.createIndex('database_views_of_dashboard').on('database_views').columns(['dashboard_view_id']).execute();

  await db.schema
    .createTable('view_queries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('view_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('page_ids', 'text', (c) => c.notNull())
    .addColumn('total_count', 'integer', (c) => c.notNull())
    .addColumn('incomplete', 'integer', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // Expired queries are deleted by expiry time.
  await db.schema.createIndex('view_queries_by_expiry').on('view_queries').columns(['expires_at']).execute();

  await giveDatabasesDefaultViews(db);
}

/**
 * Gives each database that has no view the table view "Default view" of its first data source
 * (out of the trash first, then by position). Databases that already have a view are left alone,
 * so it may run again (the migration test runs it on a store that has views).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function giveDatabasesDefaultViews(db: Kysely<any>): Promise<void> {
  const databases = await db
    .selectFrom('objects as d')
    .select(['d.id', 'd.workspace_id', 'd.created_time', 'd.created_by'])
    .select((eb) =>
      eb
        .selectFrom('objects as s')
        .select('s.id')
        .whereRef('s.parent_id', '=', 'd.id')
        .where('s.object', '=', 'data_source')
        .orderBy('s.trashed')
        .orderBy('s.position')
        .orderBy('s.id')
        .limit(1)
        .as('data_source_id'),
    )
    .where('d.object', '=', 'database')
    .where((eb) => eb.not(eb.exists(eb.selectFrom('database_views as v').select('v.id').whereRef('v.database_id', '=', 'd.id'))))
    .execute();
  const rows = databases
    .filter((d) => d.data_source_id !== null)
    .map((d) => ({
      id: randomUUID(),
      workspace_id: d.workspace_id,
      database_id: d.id,
      data_source_id: d.data_source_id,
      dashboard_view_id: null,
      name: 'Default view',
      type: 'table',
      position: 0,
      filter: null,
      sorts: null,
      quick_filters: null,
      configuration: null,
      created_time: d.created_time,
      created_by: d.created_by,
      last_edited_time: d.created_time,
      last_edited_by: d.created_by,
    }));
  // Batches keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('database_views')
      .values(rows.slice(i, i + 500))
      .execute();
}

import { type Kysely } from 'kysely';

/**
 * Data-source templates and custom emojis (issue 25 items 5 and 6).
 * - `data_source_templates`: a page of a data source the operator marked as a template; at most
 *   one per data source is the default (kept by the command, which clears the old default in the
 *   same transaction). The name is the page's title, read live, so it is not copied here.
 * - `custom_emojis`: a workspace's emoji images. The bytes live in the file store under `file_key`
 *   (src/storage/files/), like uploads; the name is unique within the workspace.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('data_source_templates')
    .addColumn('data_source_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('data_source_templates_pk', ['data_source_id', 'page_id'])
    .execute();
  // A page is looked up as a template by its own id (applying one, unmarking it).
  await db.schema.createIndex('data_source_templates_by_page').on('data_source_templates').columns(['page_id']).execute();

  await db.schema
    .createTable('custom_emojis')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('created_time', 'text', (c) => c.notNull())
    .execute();
  // Names are unique per workspace, and the listing walks them in name order.
  await db.schema.createIndex('custom_emojis_by_name').on('custom_emojis').columns(['workspace_id', 'name']).unique().execute();
}

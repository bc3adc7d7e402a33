import type { Kysely } from 'kysely';

/**
 * Finding the pages that hold an item (the pages relating to a page that changed or went to the
 * trash) asks by item alone; the index by (property_id, item) cannot serve that, and without this
 * one each such write scanned every relation, people and multi-select item of the workspace.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('property_value_items_by_value').on('property_value_items').columns(['item', 'page_id']).execute();
}

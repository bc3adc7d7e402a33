import type { Kysely } from 'kysely';

/**
 * Queries (issue 12). `text_folded` is `text_value` case-folded at write (NFC, then JavaScript's
 * toLowerCase: docs/decisions.md "Text comparisons"), so a case-insensitive condition is an exact
 * comparison that both stores answer alike; SQL's lower() folds only ASCII in SQLite and follows
 * the database's locale in PostgreSQL. Rows written before this migration get it from the value
 * backfill at start (src/domain/properties/backfillValueColumns.ts), which also fills the columns
 * types gained with it (a verification's dates).
 *
 * Indexes, each with the plan it serves (docs/benchmarks.md "Queries" has the measured plans):
 * - property_values_folded (data_source_id, property_id, text_folded): `equals` / `starts_with`
 *   on text reads a range of it, and `contains` scans only the property's rows of the data
 *   source instead of every value of the page.
 * - objects_in_source (parent_id, in_trash, created_time, id): a data source's pages in the
 *   default order (creation, then id), so a first page without a filter or with an unselective
 *   one reads 101 index entries instead of sorting the whole data source; the keyset cursor
 *   resumes inside it.
 * - property_value_items_by_item already serves `contains` on lists (property_id, item).
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('property_values').addColumn('text_folded', 'text').execute();
  await db.schema.createIndex('property_values_folded').on('property_values').columns(['data_source_id', 'property_id', 'text_folded']).execute();
  await db.schema.createIndex('objects_in_source').on('objects').columns(['parent_id', 'in_trash', 'created_time', 'id']).execute();
}

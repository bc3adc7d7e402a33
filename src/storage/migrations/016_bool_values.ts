import { type Kysely } from 'kysely';

/**
 * Checkbox values (and boolean formula results) get the index numbers, texts and dates have:
 * `(data_source_id, property_id, bool_value)`. A view query's `total_count` tells "at least
 * 10,001 matches" of a filter such as `not Done and Estimate > 5` from index ranges alone
 * (domain/query/runListing.ts countListing): the checked pages are counted from this index
 * (30,000 entries in about 2 ms on SQLite) where, without it, each value row was read (70 ms),
 * more than finding 10,001 matches page by page (docs/benchmarks.md "viewQuery"). A checkbox
 * condition's pages are then an index range, so a query can also drive from a rare one.
 */
// Migrations take Kysely<any>: they describe the schema as it was at their time, not as DB says now.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('property_values_bool').on('property_values').columns(['data_source_id', 'property_id', 'bool_value']).execute();
}

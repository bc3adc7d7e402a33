import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db.js';
import type { PropertyValueTable } from '../schema.js';

export type PropertyValueRow = Selectable<PropertyValueTable>;

export async function upsertPropertyValue(db: Db, row: Insertable<PropertyValueTable>): Promise<void> {
  await db
    .insertInto('property_values')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['page_id', 'property_id']).doUpdateSet({
        value: row.value,
        data_source_id: row.data_source_id ?? null,
        text_value: row.text_value ?? null,
        text_folded: row.text_folded ?? null,
        number_value: row.number_value ?? null,
        date_start: row.date_start ?? null,
        date_end: row.date_end ?? null,
        bool_value: row.bool_value ?? null,
      }),
    )
    .execute();
}

/** Property values after `after` (page, property), in key order: the backfill's batches. */
export async function findValuesAfter(db: Db, after: readonly [string, string] | null, limit: number): Promise<PropertyValueRow[]> {
  let query = db.selectFrom('property_values').selectAll();
  if (after) {
    query = query.where((eb) => eb.or([eb('page_id', '>', after[0]), eb.and([eb('page_id', '=', after[0]), eb('property_id', '>', after[1])])]));
  }
  return query.orderBy('page_id').orderBy('property_id').limit(limit).execute();
}

/** Rewrites the typed columns of one value (not its items). */
export async function updateValueColumns(
  db: Db,
  pageId: string,
  propertyId: string,
  columns: Pick<PropertyValueRow, 'text_value' | 'text_folded' | 'number_value' | 'date_start' | 'date_end' | 'bool_value'>,
): Promise<void> {
  await db.updateTable('property_values').set(columns).where('page_id', '=', pageId).where('property_id', '=', propertyId).execute();
}

export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** The setting's value, written first as `initial` when absent; of instances racing, the first write wins for all. */
export async function ensureSetting(db: Db, key: string, initial: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: initial })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await readSetting(db, key)) ?? initial;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

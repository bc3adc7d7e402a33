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
        number_value: row.number_value ?? null,
        date_start: row.date_start ?? null,
        date_end: row.date_end ?? null,
        bool_value: row.bool_value ?? null,
      }),
    )
    .execute();
}

import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../createStore.js';
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

/** Values of several pages at once, grouped by page id: presenting a list costs one query. */
export async function loadPropertyValues(db: Db, pageIds: readonly string[]): Promise<Map<string, PropertyValueRow[]>> {
  const byPage = new Map<string, PropertyValueRow[]>();
  if (pageIds.length === 0) return byPage;
  const rows = await db.selectFrom('property_values').selectAll().where('page_id', 'in', pageIds).execute();
  for (const row of rows) {
    const list = byPage.get(row.page_id);
    if (list) list.push(row);
    else byPage.set(row.page_id, [row]);
  }
  return byPage;
}

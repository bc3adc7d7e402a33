import type { Store } from '../../storage/createStore.js';
import { findValuesAfter, updateValueColumns } from '../../storage/repositories/propertyValues.js';
import { readSetting, writeSetting } from '../../storage/repositories/settings.js';
import type { StoredValue } from './storedValue.js';
import { valueColumns } from './valueColumns.js';

/**
 * Bump when a type's `columns` change: values stored before are recomputed once, at start, so
 * filters read every row by the same rule. 1: `text_folded`, a verification's dates, and dates without time at their zone's midnight (issue 12).
 */
const VALUE_COLUMNS_VERSION = '1';
const SETTING = 'value_columns_version';
const BATCH = 2000;

/**
 * Recomputes the typed columns of stored values from their JSON when the rules changed since
 * they were written. It runs after the migrations, outside them, because the rules are the
 * domain's and storage may not import it. Idempotent: two instances starting together compute
 * the same columns, and a start interrupted half-way begins again.
 */
export async function backfillValueColumns(store: Store): Promise<number> {
  if ((await readSetting(store.db, SETTING)) === VALUE_COLUMNS_VERSION) return 0;
  let after: [string, string] | null = null;
  let changed = 0;
  for (;;) {
    const rows = await findValuesAfter(store.db, after, BATCH);
    if (rows.length === 0) break;
    await store.transaction(async (trx) => {
      for (const row of rows) {
        const { items: _items, ...columns } = valueColumns(JSON.parse(row.value) as StoredValue);
        const same = (Object.keys(columns) as (keyof typeof columns)[]).every((key) => columns[key] === row[key]);
        if (same) continue;
        await updateValueColumns(trx, row.page_id, row.property_id, columns);
        changed++;
      }
    });
    const last = rows[rows.length - 1];
    after = [last.page_id, last.property_id];
  }
  await writeSetting(store.db, SETTING, VALUE_COLUMNS_VERSION);
  return changed;
}

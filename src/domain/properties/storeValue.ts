import type { Db } from '../../storage/db.js';
import { writeValue } from '../../storage/repositories/propertyValues.js';
import type { StoredValue } from './storedValue.js';
import { valueColumns } from './valueColumns.js';

/** Writes one value of a page with the typed columns its type fills, so filters see what pages show. */
export async function storeValue(db: Db, pageId: string, dataSourceId: string | null, propertyId: string, value: StoredValue): Promise<void> {
  await writeValue(db, pageId, dataSourceId, propertyId, JSON.stringify(value), valueColumns(value));
}

import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { findObjects, loadValues } from '../../storage/repositories/pageValues.js';
import { presentPage } from '../../presenters/page.js';
import { findEnclosingPage } from '../../storage/repositories/objects.js';
import { valuesAsRead } from '../../domain/properties/valuesAsRead.js';
import type { Schema } from '../../domain/properties/schemaTypes.js';

/** Loads what a page object shows (values as of now, schema names, database id) and presents it. */
export async function presentPageRow(
  db: Db,
  row: ObjectRow,
  options: { baseUrl: string; filterProperties?: readonly string[] },
): Promise<Record<string, unknown>> {
  let values = (await loadValues(db, [row.id])).get(row.id) ?? [];
  let names: Map<string, string> | undefined;
  let databaseId: string | null = null;
  if (row.parent_type === 'data_source_id' && row.parent_id) {
    const [source] = await findObjects(db, [row.parent_id]);
    const schema = (source ? parseContent<DataSourceContent>(source.content).properties : {}) as Schema;
    names = new Map(Object.values(schema).map((p) => [p.id, p.name]));
    databaseId = source?.parent_id ?? null;
    values = (await valuesAsRead(db, [row], new Map([[row.id, values]]), new Map([[row.parent_id, schema]]))).get(row.id) ?? [];
  }
  return presentPage(row, values, {
    baseUrl: options.baseUrl,
    names,
    databaseId,
    filterProperties: options.filterProperties ? new Set(options.filterProperties.map(decodeKey)) : undefined,
    enclosingPageId: await findEnclosingPage(db, row),
  });
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

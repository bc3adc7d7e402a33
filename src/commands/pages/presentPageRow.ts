import type { Db } from '../../storage/createStore.js';
import type { ObjectRow } from '../../storage/schema.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { findObjects, loadValues } from '../../domain/properties/valueStore.js';
import { presentPage } from '../../presenters/page.js';

/** The page an object under blocks sits in: its nearest page ancestor. */
async function enclosingPage(db: Db, row: ObjectRow): Promise<string | null> {
  if (row.parent_type !== 'block_id') return null;
  const found = await db
    .selectFrom('object_ancestors as a')
    .innerJoin('objects as o', 'o.id', 'a.ancestor_id')
    .select('o.id')
    .where('a.descendant_id', '=', row.id)
    .where('a.depth', '>', 0)
    .where('o.object', '=', 'page')
    .orderBy('a.depth')
    .limit(1)
    .executeTakeFirst();
  return found?.id ?? null;
}

/** Loads what a page object shows (values, schema names, database id) and presents it. */
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
    const schema = source ? parseContent<DataSourceContent>(source.content).properties : {};
    names = new Map(Object.values(schema).map((p) => [p.id, p.name]));
    databaseId = source?.parent_id ?? null;
    // Properties appear in schema order, as in the data source.
    const order = new Map([...names.keys()].map((id, i) => [id, i]));
    values = [...values].sort((a, b) => (order.get(a.property_id) ?? 0) - (order.get(b.property_id) ?? 0));
  }
  return presentPage(row, values, {
    baseUrl: options.baseUrl,
    names,
    databaseId,
    filterProperties: options.filterProperties ? new Set(options.filterProperties.map(decodeKey)) : undefined,
    enclosingPageId: await enclosingPage(db, row),
  });
}

function decodeKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { PageView } from '../../domain/views.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { findEnclosingPage } from '../../storage/repositories/objects.js';
import { valuesAsRead } from '../../domain/properties/valuesAsRead.js';
import { parsedSchema } from '../../domain/properties/parsedSchemas.js';

/** What a page object shows: values as of `now`, schema names, database id, and the page it sits in. */
export async function loadPageView(db: Db, row: ObjectRow, now: Date): Promise<PageView> {
  let values = (await loadValues(db, [row.id])).get(row.id) ?? [];
  let names: ReadonlyMap<string, string> | undefined;
  let databaseId: string | null = null;
  if (row.parent_type === 'data_source_id' && row.parent_id) {
    const [source] = await findObjects(db, [row.parent_id]);
    const { schema, names: named } = source ? parsedSchema(source.id, source.content) : { schema: {}, names: new Map<string, string>() };
    names = named;
    databaseId = source?.parent_id ?? null;
    values = (await valuesAsRead(db, [row], new Map([[row.id, values]]), new Map([[row.parent_id, schema]]), now)).get(row.id) ?? [];
  }
  return { kind: 'page', row, values, names, databaseId, enclosingPageId: await findEnclosingPage(db, row) };
}

import type { Db } from '../storage/db.js';
import type { ObjectRow } from '../storage/schema.js';
import type { DataSourceView, PageView } from '../domain/views.js';
import { findObjects, findSchemaSources } from '../storage/repositories/objects.js';
import { loadPresentedValues } from '../storage/repositories/propertyValues.js';
import { valuesAsRead } from '../domain/properties/valuesAsRead.js';
import { parsedSchema } from '../domain/properties/parsedSchemas.js';

/**
 * What presenting a mixed list of pages and data sources (search, queries) needs, with a fixed
 * number of queries: property values (as of `now`), the pages' data sources and the data sources'
 * databases are each loaded once for the list, and only the columns presenting needs.
 */
export async function loadObjectViews(
  db: Db,
  rows: readonly ObjectRow[],
  now: Date,
  /** Data sources the caller has read already (a query's own): not read again. */
  knownSources: readonly ObjectRow[] = [],
): Promise<Array<PageView | DataSourceView>> {
  const pages: ObjectRow[] = [];
  const sourceIds = new Set<string>();
  const databaseIds = new Set<string>();
  for (const row of rows) {
    if (row.object === 'page') {
      pages.push(row);
      if (row.parent_type === 'data_source_id' && row.parent_id) sourceIds.add(row.parent_id);
    } else if (row.object === 'data_source' && row.parent_id) {
      databaseIds.add(row.parent_id);
    }
  }
  for (const known of knownSources) sourceIds.delete(known.id);
  const [stored, read, databases] = await Promise.all([
    loadPresentedValues(
      db,
      pages.map((p) => p.id),
    ),
    findSchemaSources(db, [...sourceIds]),
    findObjects(db, [...databaseIds]),
  ]);
  const sources = [...read, ...knownSources];
  const sourceById = new Map(sources.map((s) => [s.id, { databaseId: s.parent_id, ...parsedSchema(s.id, s.content) }]));
  const values = await valuesAsRead(db, pages, stored, new Map([...sourceById].map(([id, s]) => [id, s.schema])), now);
  const databaseById = new Map(databases.map((d) => [d.id, d]));
  return rows.map((row): PageView | DataSourceView => {
    if (row.object === 'data_source') return { kind: 'data_source', row, database: row.parent_id ? databaseById.get(row.parent_id) : undefined };
    const inSource = row.parent_type === 'data_source_id' && row.parent_id !== null;
    const source = inSource ? sourceById.get(row.parent_id!) : undefined;
    return {
      kind: 'page',
      row,
      values: values.get(row.id) ?? [],
      names: inSource ? (source?.names ?? new Map<string, string>()) : undefined,
      databaseId: source?.databaseId ?? null,
      // Search results are shown at every version with their direct parent.
      enclosingPageId: null,
    };
  });
}

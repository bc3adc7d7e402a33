import type { Db } from '../storage/createStore.js';
import type { ObjectRow } from '../storage/schema.js';
import { findObjects, loadValues } from '../storage/repositories/pageValues.js';
import { parseContent, type DataSourceContent } from '../domain/contentShapes.js';
import { presentPage } from './page.js';
import { presentDataSource } from './dataSource.js';
import { valuesAsRead } from '../domain/properties/valuesAsRead.js';
import type { Schema } from '../domain/properties/schemaTypes.js';

/**
 * Presents a mixed list of pages and data sources (search, queries) with a fixed number of
 * queries: property values (as of now), data source schemas and databases are each loaded once
 * for the list.
 */
export async function presentObjects(db: Db, rows: readonly ObjectRow[], options: { baseUrl: string }): Promise<Record<string, unknown>[]> {
  const pageIds = rows.filter((r) => r.object === 'page').map((r) => r.id);
  const sourceIds = new Set<string>();
  for (const row of rows) {
    if (row.object === 'page' && row.parent_type === 'data_source_id' && row.parent_id) sourceIds.add(row.parent_id);
    if (row.object === 'data_source') sourceIds.add(row.id);
  }
  const [stored, sources] = await Promise.all([loadValues(db, pageIds), findObjects(db, [...sourceIds])]);
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const schemas = new Map(sources.map((s) => [s.id, parseContent<DataSourceContent>(s.content).properties as Schema]));
  const values = await valuesAsRead(
    db,
    rows.filter((r) => r.object === 'page'),
    stored,
    schemas,
  );
  const databaseIds = [...new Set(sources.map((s) => s.parent_id).filter((id): id is string => Boolean(id)))];
  const databases = await findObjects(db, databaseIds);
  const databaseById = new Map(databases.map((d) => [d.id, d]));
  const namesBySource = new Map<string, Map<string, string>>();
  const namesFor = (sourceId: string) => {
    let names = namesBySource.get(sourceId);
    if (!names) {
      const schema = schemas.get(sourceId) ?? {};
      names = new Map(Object.values(schema).map((p) => [p.id, p.name]));
      namesBySource.set(sourceId, names);
    }
    return names;
  };
  return rows.map((row) => {
    if (row.object === 'data_source') return presentDataSource(row, row.parent_id ? databaseById.get(row.parent_id) : undefined, options);
    const inSource = row.parent_type === 'data_source_id' && row.parent_id ? row.parent_id : null;
    return presentPage(row, values.get(row.id) ?? [], {
      baseUrl: options.baseUrl,
      names: inSource ? namesFor(inSource) : undefined,
      databaseId: inSource ? (sourceById.get(inSource)?.parent_id ?? null) : null,
    });
  });
}

import type { Db } from '../storage/createStore.js';
import type { ObjectRow } from '../storage/schema.js';
import { findObjects, findSchemaSources, loadPresentedValues } from '../storage/repositories/pageValues.js';
import { parseContent, type DataSourceContent } from '../domain/contentShapes.js';
import { presentPage } from './page.js';
import { presentDataSource } from './dataSource.js';

/** Property names by id of recently seen schemas, keyed by the schema's stored JSON itself. */
const namesBySchemaText = new Map<string, ReadonlyMap<string, string>>();
const NAMES_CACHE_SIZE = 2000;

/**
 * A page shows its values under the names of its data source's schema. Parsing a schema costs
 * more than comparing its text, and a page of results shares a few dozen schemas that rarely
 * change, so names are remembered by the exact stored text: an edited schema is a new key.
 */
function propertyNames(schemaText: string): ReadonlyMap<string, string> {
  let names = namesBySchemaText.get(schemaText);
  if (!names) {
    const schema = parseContent<DataSourceContent>(schemaText).properties ?? {};
    names = new Map(Object.values(schema).map((p) => [p.id, p.name]));
    if (namesBySchemaText.size >= NAMES_CACHE_SIZE) namesBySchemaText.delete(namesBySchemaText.keys().next().value as string);
    namesBySchemaText.set(schemaText, names);
  }
  return names;
}

/**
 * Presents a mixed list of pages and data sources (search, queries) with a fixed number of
 * queries: property values, the pages' data sources and the data sources' databases are each
 * loaded once for the list, and only the columns presenting needs.
 */
export async function presentObjects(db: Db, rows: readonly ObjectRow[], options: { baseUrl: string }): Promise<Record<string, unknown>[]> {
  const pageIds: string[] = [];
  const sourceIds = new Set<string>();
  const databaseIds = new Set<string>();
  for (const row of rows) {
    if (row.object === 'page') {
      pageIds.push(row.id);
      if (row.parent_type === 'data_source_id' && row.parent_id) sourceIds.add(row.parent_id);
    } else if (row.object === 'data_source' && row.parent_id) {
      databaseIds.add(row.parent_id);
    }
  }
  const [values, sources, databases] = await Promise.all([
    loadPresentedValues(db, pageIds),
    findSchemaSources(db, [...sourceIds]),
    findObjects(db, [...databaseIds]),
  ]);
  const sourceById = new Map(sources.map((s) => [s.id, s]));
  const databaseById = new Map(databases.map((d) => [d.id, d]));
  return rows.map((row) => {
    if (row.object === 'data_source') return presentDataSource(row, row.parent_id ? databaseById.get(row.parent_id) : undefined, options);
    const source = row.parent_type === 'data_source_id' && row.parent_id ? sourceById.get(row.parent_id) : undefined;
    const inSource = row.parent_type === 'data_source_id' && row.parent_id !== null;
    return presentPage(row, values.get(row.id) ?? [], {
      baseUrl: options.baseUrl,
      names: inSource ? (source ? propertyNames(source.content) : new Map()) : undefined,
      databaseId: source?.parent_id ?? null,
    });
  });
}

import type { Db } from '../../storage/db.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { configOf, type RelationConfig, type Schema } from './schemaTypes.js';
import { dataSourcesMentioning, findObjects, lockRow, writeObjectContent } from '../../storage/repositories/objects.js';

/**
 * A relation config names the related data source and its database (FACTS.md §9); after a data
 * source moves to another database, the configs pointing at it (its own included, for a relation
 * to itself) name the new database. Nobody edited those schemas, so their edit times stay.
 */
export async function repointRelations(db: Db, workspaceId: string, dataSourceId: string, databaseId: string): Promise<void> {
  for (const { id } of await dataSourcesMentioning(db, workspaceId, dataSourceId)) {
    // Locked before reading, as for any schema edit: a concurrent one waits instead of being lost.
    await lockRow(db, id);
    const [row] = await findObjects(db, [id]);
    const content = parseContent<DataSourceContent>(row.content);
    let changed = false;
    for (const property of Object.values(content.properties as Schema)) {
      if (property.type !== 'relation' || !property.relation) continue;
      const config = configOf<RelationConfig>(property);
      if (config.data_source_id !== dataSourceId || config.database_id === databaseId) continue;
      config.database_id = databaseId;
      changed = true;
    }
    if (changed) await writeObjectContent(db, id, content);
  }
}

import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { DatabaseView } from '../../domain/views.js';
import { listDataSourcesOf } from '../../storage/repositories/objects.js';

/** A database with its data sources, as presenting it needs. */
export async function loadDatabaseView(db: Db, row: ObjectRow): Promise<DatabaseView> {
  return { kind: 'database', row, dataSources: await listDataSourcesOf(db, row.id) };
}

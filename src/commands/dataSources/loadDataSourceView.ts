import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { DataSourceView } from '../../domain/views.js';
import { findObject } from '../../storage/repositories/objects.js';

/** A data source with the database holding it, as presenting it needs. */
export async function loadDataSourceView(db: Db, row: ObjectRow): Promise<DataSourceView> {
  return { kind: 'data_source', row, database: row.parent_id ? await findObject(db, row.parent_id) : undefined };
}

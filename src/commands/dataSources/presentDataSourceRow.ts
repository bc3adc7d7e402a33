import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { findObject } from '../../storage/repositories/objects.js';
import { presentDataSource } from '../../presenters/dataSource.js';

export async function presentDataSourceRow(db: Db, row: ObjectRow, baseUrl: string): Promise<Record<string, unknown>> {
  const database = row.parent_id ? await findObject(db, row.parent_id) : undefined;
  return presentDataSource(row, database, { baseUrl });
}

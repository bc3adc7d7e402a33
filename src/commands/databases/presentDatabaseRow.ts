import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { listDataSourcesOf } from '../../storage/repositories/pageValues.js';
import { presentDatabase } from '../../presenters/database.js';

export async function presentDatabaseRow(db: Db, row: ObjectRow, baseUrl: string): Promise<Record<string, unknown>> {
  return presentDatabase(row, await listDataSourcesOf(db, row.id), { baseUrl });
}

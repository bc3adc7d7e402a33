import type { Db } from '../createStore.js';
import type { Selectable } from 'kysely';
import type { WorkspaceTable } from '../schema.js';

export type WorkspaceRow = Selectable<WorkspaceTable>;

export async function insertWorkspace(db: Db, row: WorkspaceRow): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

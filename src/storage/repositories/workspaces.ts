import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { WorkspaceRow } from '../schema.js';
import { deleteOAuthRowsOfWorkspace } from './oauth.js';
import { changingCallers } from '../callerChanges.js';

export async function insertWorkspace(db: Db, row: WorkspaceRow): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateWorkspaceRow(
  db: Db,
  id: string,
  changes: Partial<Pick<WorkspaceRow, 'name' | 'max_file_upload_bytes' | 'meeting_notes_enabled' | 'ai_credits'>>,
): Promise<void> {
  await changingCallers(db, (trx) => trx.updateTable('workspaces').set(changes).where('id', '=', id).execute());
}

/** Keyset page of every workspace in id order, for the admin plane. */
export async function listWorkspaces(db: Db, afterId: string | null, limit: number): Promise<WorkspaceRow[]> {
  let query = db.selectFrom('workspaces').selectAll();
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * Deletes a workspace and everything in it, children before the rows they reference. Run inside
 * one transaction. search_index is maintained by triggers and is not in the Kysely schema; its own
 * triggers drop the full-text and scope rows with it.
 */
export async function deleteWorkspaceTree(db: Db, workspaceId: string): Promise<boolean> {
  const objects = db.selectFrom('objects').select('id').where('workspace_id', '=', workspaceId);
  const connections = db.selectFrom('connections').select('id').where('workspace_id', '=', workspaceId);
  await db.deleteFrom('property_value_items').where('page_id', 'in', objects).execute();
  await db.deleteFrom('property_values').where('page_id', 'in', objects).execute();
  await db.deleteFrom('grants').where('connection_id', 'in', connections).execute();
  await db.deleteFrom('comments').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('object_ancestors').where('descendant_id', 'in', objects).execute();
  await db.deleteFrom('objects').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('view_queries').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('database_views').where('workspace_id', '=', workspaceId).execute();
  await sql`delete from search_index where workspace_id = ${workspaceId}`.execute(db);
  // Their blobs' bytes live outside the transaction: the sweeper deletes blobs whose upload is gone.
  await db.deleteFrom('jobs').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('async_tasks').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('data_source_templates').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('custom_emojis').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('file_uploads').where('workspace_id', '=', workspaceId).execute();
  await deleteOAuthRowsOfWorkspace(db, workspaceId);
  return changingCallers(db, async (trx) => {
    await trx.deleteFrom('connections').where('workspace_id', '=', workspaceId).execute();
    await trx.deleteFrom('users').where('workspace_id', '=', workspaceId).execute();
    const result = await trx.deleteFrom('workspaces').where('id', '=', workspaceId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** Takes `amount` from the workspace's AI credits (a workspace without a limit keeps none). */
export async function spendWorkspaceCredits(db: Db, id: string, amount: number): Promise<void> {
  await changingCallers(db, (trx) =>
    trx
      .updateTable('workspaces')
      .set({ ai_credits: sql<number>`ai_credits - ${amount}` })
      .where('id', '=', id)
      .where('ai_credits', 'is not', null)
      .execute(),
  );
}

import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db.js';
import type { DatabaseViewRow, DatabaseViewTable, ViewQueryRow, ViewQueryTable } from '../schema.js';

export async function insertDatabaseView(db: Db, row: Insertable<DatabaseViewTable>): Promise<void> {
  await db.insertInto('database_views').values(row).execute();
}

export async function findDatabaseView(db: Db, id: string): Promise<DatabaseViewRow | undefined> {
  return db.selectFrom('database_views').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateDatabaseView(db: Db, id: string, changes: Updateable<DatabaseViewTable>): Promise<void> {
  await db.updateTable('database_views').set(changes).where('id', '=', id).execute();
}

/** Deletes a view and, for a dashboard, its widget views; returns the ids deleted. */
export async function deleteDatabaseView(db: Db, id: string): Promise<void> {
  await db.deleteFrom('database_views').where('dashboard_view_id', '=', id).execute();
  await db.deleteFrom('database_views').where('id', '=', id).execute();
  await db.deleteFrom('view_queries').where('view_id', '=', id).execute();
}

/** A database's tabs (not dashboard widgets), in tab order. */
export async function listDatabaseTabs(db: Db, databaseId: string): Promise<DatabaseViewRow[]> {
  return db
    .selectFrom('database_views')
    .selectAll()
    .where('database_id', '=', databaseId)
    .where('dashboard_view_id', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** The widget views of a dashboard. */
export async function listDashboardWidgets(db: Db, dashboardViewId: string): Promise<DatabaseViewRow[]> {
  return db.selectFrom('database_views').selectAll().where('dashboard_view_id', '=', dashboardViewId).orderBy('id').execute();
}

/** Every view showing a data source (tabs of any database and widgets), in id order after `afterId`. */
export async function listViewsOfDataSource(db: Db, dataSourceId: string, afterId: string | null, limit: number): Promise<DatabaseViewRow[]> {
  let query = db.selectFrom('database_views').selectAll().where('data_source_id', '=', dataSourceId);
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

export async function insertViewQuery(db: Db, row: Insertable<ViewQueryTable>): Promise<void> {
  await db.insertInto('view_queries').values(row).execute();
}

export async function findViewQuery(db: Db, id: string): Promise<ViewQueryRow | undefined> {
  return db.selectFrom('view_queries').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteViewQuery(db: Db, id: string): Promise<void> {
  await db.deleteFrom('view_queries').where('id', '=', id).execute();
}

/** Drops the cached results that expired before `now` (ISO text sorts as time). */
export async function deleteExpiredViewQueries(db: Db, now: string): Promise<void> {
  await db.deleteFrom('view_queries').where('expires_at', '<=', now).execute();
}

/** Of `ids`, those shared with the connection (themselves or through an ancestor), in batches that stay under bound-parameter limits. */
export async function sharedAmong(db: Db, connectionId: string, ids: readonly string[]): Promise<Set<string>> {
  const shared = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('object_ancestors as a')
      .innerJoin('grants as g', 'g.object_id', 'a.ancestor_id')
      .select('a.descendant_id')
      .distinct()
      .where('g.connection_id', '=', connectionId)
      .where('a.descendant_id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const row of rows) shared.add(row.descendant_id);
  }
  return shared;
}

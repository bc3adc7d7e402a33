import type { Db } from '../../storage/db.js';
import { insertDatabaseView } from '../../storage/repositories/databaseViews.js';
import { newId } from '../../ids/ids.js';

/** FACTS.md §10.8 8.4: a database made through the API starts with one table view, "Default view", of its data source. */
export async function createDefaultView(db: Db, workspaceId: string, databaseId: string, dataSourceId: string, at: string, by: string): Promise<void> {
  await insertDatabaseView(db, {
    id: newId(),
    workspace_id: workspaceId,
    database_id: databaseId,
    data_source_id: dataSourceId,
    dashboard_view_id: null,
    name: 'Default view',
    type: 'table',
    position: 0,
    filter: null,
    sorts: null,
    quick_filters: null,
    configuration: null,
    created_time: at,
    created_by: by,
    last_edited_time: at,
    last_edited_by: by,
  });
}

import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { viewEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { DatabaseViewRow } from '../../storage/schema.js';
import { deleteDatabaseView, findDatabaseView, listDatabaseTabs, updateDatabaseView } from '../../storage/repositories/databaseViews.js';
import { validationError } from '../../errors/registry.js';
import { removeWidget, type DashboardLayout } from '../../domain/databaseViews/dashboardLayout.js';
import { loadVisibleView } from './viewAccess.js';

/**
 * DELETE /v1/views/{view_id} (FACTS.md §10.8 8.5): permanent. A database keeps at least one tab;
 * a widget leaves its dashboard's layout; a dashboard takes its widgets with it.
 */
export async function deleteView(ctx: AppContext, caller: Caller, viewId: string, rawId: string): Promise<DatabaseViewRow> {
  const at = ctx.clock.now().toISOString();
  return ctx.store.transaction(async (trx) => {
    const row = await loadVisibleView(trx, caller, viewId, rawId);
    if (row.dashboard_view_id === null) {
      const tabs = await listDatabaseTabs(trx, row.database_id);
      if (tabs.length <= 1) throw validationError('Cannot delete the last view of a database. A database must have at least one view.');
    } else {
      const dashboard = await findDatabaseView(trx, row.dashboard_view_id);
      if (dashboard?.configuration) {
        const layout = removeWidget(JSON.parse(dashboard.configuration) as DashboardLayout, row.id);
        await updateDatabaseView(trx, dashboard.id, { configuration: JSON.stringify(layout), last_edited_time: at, last_edited_by: caller.botId });
      }
    }
    await deleteDatabaseView(trx, row.id);
    await recordEvent(ctx, trx, caller, at, ...viewEvent(row, 'deleted'));
    return row;
  });
}

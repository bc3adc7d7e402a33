import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { viewEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdateViewInput, ViewType } from '../../schemas/databaseViews.js';
import type { DatabaseViewRow } from '../../storage/schema.js';
import type { Db } from '../../storage/db.js';
import { findDatabaseView, updateDatabaseView } from '../../storage/repositories/databaseViews.js';
import { findObject } from '../../storage/repositories/objects.js';
import {
  checkConfiguration,
  checkFilterAndSorts,
  checkQuickFilters,
  loadViewSchema,
  mergeConfiguration,
  mergeQuickFilters,
  refuseDashboardQuery,
  type ViewSchema,
} from '../../domain/databaseViews/checkViewDefinition.js';
import { loadVisibleView } from './viewAccess.js';

const parsed = (json: string | null): Record<string, unknown> | null => (json === null ? null : (JSON.parse(json) as Record<string, unknown>));

/** The schema a view's definition is checked against; a dashboard, or a view whose data source is gone, has none. */
async function schemaOf(db: Db, row: DatabaseViewRow, now: Date): Promise<ViewSchema | null> {
  const source = row.data_source_id ? await findObject(db, row.data_source_id) : undefined;
  return source?.object === 'data_source' ? loadViewSchema(db, source, now) : null;
}

/**
 * PATCH /v1/views/{view_id} (FACTS.md §10.8 8.5): `filter` and `sorts` replace (null clears),
 * `quick_filters` merge by key (null removes one; the whole field null clears them), and
 * `configuration` merges shallowly, checked whole after the merge.
 */
export async function updateView(ctx: AppContext, caller: Caller, viewId: string, rawId: string, body: UpdateViewInput): Promise<DatabaseViewRow> {
  const now = ctx.clock.now();
  return ctx.store.transaction(async (trx) => {
    const row = await loadVisibleView(trx, caller, viewId, rawId);
    const type = row.type as ViewType;
    if (type === 'dashboard') refuseDashboardQuery(body);
    const schema = await schemaOf(trx, row, now);
    const changes: Partial<DatabaseViewRow> = {};
    if (body.name !== undefined) changes.name = body.name;
    if (schema) checkFilterAndSorts(schema, body.filter, body.sorts);
    if (body.filter !== undefined) changes.filter = body.filter === null ? null : JSON.stringify(body.filter);
    if (body.sorts !== undefined) changes.sorts = body.sorts === null || body.sorts.length === 0 ? null : JSON.stringify(body.sorts);
    if (body.quick_filters !== undefined) {
      if (body.quick_filters === null) changes.quick_filters = null;
      else {
        if (schema) checkQuickFilters(schema, body.quick_filters);
        const merged = mergeQuickFilters(parsed(row.quick_filters), body.quick_filters);
        changes.quick_filters = merged === null ? null : JSON.stringify(merged);
      }
    }
    if (body.configuration !== undefined) {
      // The patch itself names the type and that type's required fields (FACTS.md §10.8 8.5).
      checkConfiguration(schema, type, body.configuration);
      changes.configuration = JSON.stringify(mergeConfiguration(parsed(row.configuration), body.configuration));
    }
    await updateDatabaseView(trx, row.id, { ...changes, last_edited_time: now.toISOString(), last_edited_by: caller.botId });
    // Quick filters are part of what the view filters by.
    const fields = (['name', 'filter', 'sorts', 'configuration'] as const).filter(
      (f) => changes[f] !== undefined || (f === 'filter' && changes.quick_filters !== undefined),
    );
    if (fields.length > 0) await recordEvent(ctx, trx, caller, now.toISOString(), ...viewEvent(row, 'updated', fields));
    return (await findDatabaseView(trx, row.id))!;
  });
}

import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { viewEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import type { CreateViewInput } from '../../schemas/databaseViews.js';
import type { DatabaseViewRow } from '../../storage/schema.js';
import { findDatabaseView, insertDatabaseView, listDatabaseTabs, updateDatabaseView } from '../../storage/repositories/databaseViews.js';
import { invalidField, ValidationFailure } from '../../errors/validationFailure.js';
import { createLinkedDatabase } from './createLinkedDatabase.js';
import { newId, normalizeId } from '../../ids/ids.js';
import {
  checkConfiguration,
  checkFilterAndSorts,
  checkQuickFilters,
  loadViewSchema,
  refuseDashboardQuery,
} from '../../domain/databaseViews/checkViewDefinition.js';
import { addWidget, emptyDashboard, type DashboardLayout } from '../../domain/databaseViews/dashboardLayout.js';
import { tabPosition } from '../../domain/databaseViews/tabPosition.js';
import { loadVisibleView, requireAnyCapability } from './viewAccess.js';

/** What a create answers: the view, and whether the caller may read it (else only the partial view). */
export interface WrittenView {
  row: DatabaseViewRow;
  readable: boolean;
}

const id = (raw: string) => normalizeId(raw) as string;

/**
 * POST /v1/views (FACTS.md §10.8 8.4): a tab of a database (`database_id`), a widget of a
 * dashboard view (`view_id`), or the first view of a new linked database on a page (`create_database`).
 */
export async function createView(ctx: AppContext, caller: Caller, body: CreateViewInput): Promise<WrittenView> {
  requireAnyCapability(caller, ['insert_content', 'update_content']);
  const targets = (['database_id', 'view_id', 'create_database'] as const).filter((k) => body[k] !== undefined);
  if (targets.length !== 1) {
    throw new ValidationFailure({
      part: 'body',
      path: [],
      rule: { name: 'custom', expectation: 'should have exactly one of database_id, view_id, create_database' },
      actual: { words: targets.length === 0 ? 'none' : targets.join(', ') },
    });
  }
  if (body.position !== undefined && body.database_id === undefined)
    throw invalidField(['position'], 'should be not present without database_id', body.position);
  if (body.placement !== undefined && body.view_id === undefined) throw invalidField(['placement'], 'should be not present without view_id', body.placement);

  const now = ctx.clock.now();
  const at = now.toISOString();
  return ctx.store.transaction(async (trx) => {
    const source = await loadVisibleObject(trx, caller, id(body.data_source_id), ['data_source'], 'data_source', body.data_source_id);
    const isDashboard = body.type === 'dashboard';
    if (isDashboard) refuseDashboardQuery(body);
    const schema = await loadViewSchema(trx, source, now);
    checkFilterAndSorts(schema, body.filter, body.sorts);
    if (body.quick_filters) checkQuickFilters(schema, body.quick_filters);
    if (body.configuration !== undefined) checkConfiguration(schema, body.type, body.configuration);

    const viewId = newId();
    let databaseId: string;
    let dashboardViewId: string | null = null;
    let position = 0;
    if (body.database_id !== undefined) {
      databaseId = (await loadVisibleObject(trx, caller, id(body.database_id), ['database'], 'database', body.database_id)).id;
      const tabs = await listDatabaseTabs(trx, databaseId);
      const after = body.position?.type === 'after_view' ? normalizeId(body.position.view_id) : null;
      position = tabPosition(tabs, body.position, after);
    } else if (body.create_database !== undefined) {
      databaseId = await createLinkedDatabase(trx, caller, body.create_database, source, at);
    } else {
      const dashboard = await loadVisibleView(trx, caller, id(body.view_id!), body.view_id);
      if (dashboard.type !== 'dashboard') throw invalidField(['view_id'], 'should be the id of a dashboard view', body.view_id);
      if (isDashboard) throw invalidField(['type'], 'should not be dashboard: dashboards do not nest', body.type);
      // A widget belongs to the database of the data source it shows (FACTS.md §10.8 8.4).
      databaseId = source.parent_id as string;
      dashboardViewId = dashboard.id;
      const layout = addWidget(JSON.parse(dashboard.configuration ?? 'null') ?? emptyDashboard(), viewId, body.placement, newId);
      await updateDatabaseView(trx, dashboard.id, { configuration: JSON.stringify(layout), last_edited_time: at, last_edited_by: caller.botId });
    }

    const configuration: Record<string, unknown> | DashboardLayout | undefined = isDashboard ? emptyDashboard() : body.configuration;
    await insertDatabaseView(trx, {
      id: viewId,
      workspace_id: caller.workspaceId,
      database_id: databaseId,
      data_source_id: isDashboard ? null : source.id,
      dashboard_view_id: dashboardViewId,
      name: body.name,
      type: body.type,
      position,
      filter: body.filter === undefined ? null : JSON.stringify(body.filter),
      sorts: body.sorts === undefined ? null : JSON.stringify(body.sorts),
      quick_filters: body.quick_filters === undefined ? null : JSON.stringify(body.quick_filters),
      configuration: configuration === undefined ? null : JSON.stringify(configuration),
      created_time: at,
      created_by: caller.botId,
      last_edited_time: at,
      last_edited_by: caller.botId,
    });
    const created = (await findDatabaseView(trx, viewId))!;
    await recordEvent(ctx, trx, caller, at, ...viewEvent(created, 'created'));
    return { row: created, readable: caller.capabilities.has('read_content') };
  });
}

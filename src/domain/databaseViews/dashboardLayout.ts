import { invalidField } from '../../errors/validationFailure.js';

/** A dashboard view's configuration (FACTS.md §10.8 8.3): rows of widgets on a 12-column grid. */
export interface DashboardWidget {
  id: string;
  view_id: string;
  width: number;
  row_index: number;
}
export interface DashboardRow {
  id: string;
  widgets: DashboardWidget[];
  height?: number;
}
export interface DashboardLayout {
  type: 'dashboard';
  rows: DashboardRow[];
}

/** FACTS.md §10.8 8.4: at most four widgets side by side. */
export const MAX_WIDGETS_PER_ROW = 4;
const GRID_COLUMNS = 12;

export const emptyDashboard = (): DashboardLayout => ({ type: 'dashboard', rows: [] });

export type Placement = { type: 'new_row'; row_index?: number } | { type: 'existing_row'; row_index: number };

/** Widths share the row evenly, and each widget's row_index says where its row now is. */
function settle(rows: DashboardRow[]): DashboardLayout {
  return {
    type: 'dashboard',
    rows: rows.map((row, index) => ({
      ...row,
      widgets: row.widgets.map((w) => ({ ...w, width: Math.floor(GRID_COLUMNS / row.widgets.length), row_index: index })),
    })),
  };
}

/** The layout with a widget for `viewId` placed as asked (a new row at the end by default). */
export function addWidget(layout: DashboardLayout, viewId: string, placement: Placement | undefined, newId: () => string): DashboardLayout {
  const rows = layout.rows.map((r) => ({ ...r, widgets: [...r.widgets] }));
  const widget: DashboardWidget = { id: newId(), view_id: viewId, width: GRID_COLUMNS, row_index: 0 };
  if (placement?.type === 'existing_row') {
    const row = rows[placement.row_index];
    if (!row) throw invalidField(['placement', 'row_index'], `should be the index of an existing row (the dashboard has ${rows.length})`, placement.row_index);
    if (row.widgets.length >= MAX_WIDGETS_PER_ROW) {
      throw invalidField(['placement', 'row_index'], `should be a row with fewer than ${MAX_WIDGETS_PER_ROW} widgets`, placement.row_index);
    }
    row.widgets.push(widget);
  } else {
    const at = placement?.row_index ?? rows.length;
    if (at > rows.length) throw invalidField(['placement', 'row_index'], `should be at most ${rows.length}, the number of rows`, at);
    rows.splice(at, 0, { id: newId(), widgets: [widget] });
  }
  return settle(rows);
}

/** The layout without the widget of `viewId`; a row left empty goes too. */
export function removeWidget(layout: DashboardLayout, viewId: string): DashboardLayout {
  const rows = layout.rows.map((r) => ({ ...r, widgets: r.widgets.filter((w) => w.view_id !== viewId) })).filter((r) => r.widgets.length > 0);
  return settle(rows);
}

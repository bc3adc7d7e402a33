import { invalidField } from '../../errors/validationFailure.js';

export type TabPosition = { type: 'start' } | { type: 'end' } | { type: 'after_view'; view_id: string };

/**
 * Where a new tab goes among a database's tabs (given in order): positions are numbers, so a tab
 * placed after another takes the midpoint and no other row is rewritten.
 */
export function tabPosition(tabs: readonly { id: string; position: number }[], position: TabPosition | undefined, afterViewId: string | null): number {
  if (tabs.length === 0) return 0;
  if (!position || position.type === 'end') return tabs[tabs.length - 1].position + 1;
  if (position.type === 'start') return tabs[0].position - 1;
  const index = tabs.findIndex((t) => t.id === afterViewId);
  if (index < 0) throw invalidField(['position', 'view_id'], 'should be the id of a view of the database', position.view_id);
  const next = tabs[index + 1];
  return next ? (tabs[index].position + next.position) / 2 : tabs[index].position + 1;
}

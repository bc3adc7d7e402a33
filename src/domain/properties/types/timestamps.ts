import { dateAtom } from '../../rollups/rollupAtoms.js';
import { noConfig, type FromPageRow, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { dateConditions } from '../../query/conditions/date.js';

/** created_time and last_edited_time: computed instants, shown from the page row. */
const timestamp = (column: FromPageRow['column']): PropertyTypeDefinition => ({
  normalize: null,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.date_start = (member as string | null) ?? null;
  },
  emptyValue: () => null,
  formulaType: () => T.date,
  toFormulaValue: (member) => ({ start: member as string, end: null, time_zone: null }),
  atoms: (member) => dateAtom(member, null, null),
  configure: noConfig,
  presentConfig: noConfig,
  page: { fromRow: { column, as: 'timestamp' }, referenceList: false, hasMore: false },
  filters: dateConditions,
});

export const createdTime = timestamp('created_time');
export const lastEditedTime = timestamp('last_edited_time');

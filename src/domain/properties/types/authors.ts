import { userAtom } from '../../rollups/rollupAtoms.js';
import { noConfig, type FromPageRow, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { formulaPerson } from './people.js';
import { peopleConditions } from '../../query/conditions/lists.js';

/** created_by and last_edited_by: computed users, shown from the page row. */
const author = (column: FromPageRow['column']): PropertyTypeDefinition => ({
  normalize: null,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.text_value = (member as { id: string } | null)?.id ?? null;
  },
  emptyValue: () => null,
  formulaType: () => T.person,
  toFormulaValue: (member, world) => formulaPerson(world, (member as { id: string }).id),
  atoms: (member) => userAtom(member),
  configure: noConfig,
  presentConfig: noConfig,
  page: { fromRow: { column, as: 'user' }, referenceList: false, hasMore: false },
  filters: peopleConditions,
});

export const createdBy = author('created_by');
export const lastEditedBy = author('last_edited_by');

import type { ValueColumns } from '../../storage/repositories/pageValues.js';
import { definitionOf } from './registry.js';
import type { StoredValue } from './storedValue.js';

/**
 * The typed columns of a value, for SQL filters: each type says which columns its value fills
 * (types/definition.ts `columns`); formula and rollup results land in the column of their result
 * type. A type this server does not know fills none.
 */
export function valueColumns(value: StoredValue): ValueColumns {
  const columns: ValueColumns = { text_value: null, number_value: null, date_start: null, date_end: null, bool_value: null, items: [] };
  definitionOf(value.type)?.columns(value[value.type], columns);
  return columns;
}

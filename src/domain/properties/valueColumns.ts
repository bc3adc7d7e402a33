import type { ValueColumns } from '../../storage/repositories/propertyValues.js';
import { foldText } from '../foldText.js';
import { definitionOf } from './registry.js';
import type { StoredValue } from './storedValue.js';

/**
 * The typed columns of a value, for SQL filters: each type says which columns its value fills
 * (types/definition.ts `columns`); formula and rollup results land in the column of their result
 * type. A type this server does not know fills none. `text_folded` follows `text_value` for every
 * type, so text conditions never meet a value folded by another rule.
 */
export function valueColumns(value: StoredValue): ValueColumns {
  const columns: ValueColumns = { text_value: null, text_folded: null, number_value: null, date_start: null, date_end: null, bool_value: null, items: [] };
  definitionOf(value.type)?.columns(value[value.type], columns);
  columns.text_folded = columns.text_value === null ? null : foldText(columns.text_value);
  return columns;
}

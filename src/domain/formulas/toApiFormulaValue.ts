import type { ApiFormulaValue, FormulaType, FormulaValue } from './types.js';
import { dateRangeOf, formatValue, isDateValue, num } from './values.js';

/**
 * Presents a formula result as the Notion API does. Number, boolean and date
 * results keep their type; every other type is returned as text (people by
 * name, pages by title, lists joined with ","). Empty text is reported as null.
 */
export function toApiFormulaValue(value: FormulaValue, type: FormulaType): ApiFormulaValue {
  switch (type.kind) {
    case 'number':
      return { type: 'number', number: typeof value === 'number' ? num(value) : null };
    case 'boolean':
      return { type: 'boolean', boolean: typeof value === 'boolean' ? value : null };
    case 'date':
      if (!isDateValue(value) || dateRangeOf(value) === null) return { type: 'date', date: null };
      return { type: 'date', date: { start: value.start, end: value.end ?? null, time_zone: value.time_zone ?? null } };
    default: {
      const text = formatValue(value);
      return { type: 'string', string: text === '' ? null : text };
    }
  }
}

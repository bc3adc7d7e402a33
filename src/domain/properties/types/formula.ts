import type { FormulaValue } from '../../formulas/index.js';
import { booleanAtom, dateAtom, isRecord, numberAtom, str, text } from '../../rollups/rollupAtoms.js';
import type { DateValue } from '../dates.js';
import { dateColumns } from './columns.js';
import { formulaDate } from './date.js';
import { AS_STORED, textOrNull, type Json, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { formulaConditions } from '../../query/conditions/formula.js';

/**
 * formula: computed; the value is `{type: string|number|boolean|date, <type>: result}` and is
 * read, filtered and rolled up as its result type. Its formula type is its result's, which
 * formulaSchema.ts finds by compiling it.
 */
export const formula: PropertyTypeDefinition = {
  normalize: null,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    const result = member as Json;
    if (result.type === 'string') into.text_value = textOrNull(result.string as string | null);
    if (result.type === 'number') into.number_value = (result.number as number | null) ?? null;
    if (result.type === 'boolean') into.bool_value = result.boolean === null ? null : result.boolean ? 1 : 0;
    if (result.type === 'date') dateColumns(into, result.date as DateValue | null);
  },
  emptyValue: () => ({ type: 'string', string: null }),
  formulaType: () => T.string,
  toFormulaValue(member) {
    const result = member as Json;
    if (result.type === 'date') return formulaDate(result.date as DateValue | null);
    return (result[result.type as string] as FormulaValue) ?? null;
  },
  atoms(member) {
    if (!isRecord(member)) return [];
    switch (member.type) {
      case 'string':
        return text(str(member.string) ?? '');
      case 'number':
        return numberAtom(member.number);
      case 'boolean':
        return booleanAtom(member.boolean);
      case 'date':
        return isRecord(member.date) ? dateAtom(member.date.start, member.date.end, member.date.time_zone) : [];
      default:
        return [];
    }
  },
  configure: (member, existing) => ({
    expression: (member.expression as string | undefined) ?? (existing as { expression?: string } | undefined)?.expression ?? '',
  }),
  presentConfig: (config) => ({ expression: config.expression ?? '' }),
  page: AS_STORED,
  filters: formulaConditions,
};

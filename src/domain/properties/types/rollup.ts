import { dateAtom, isRecord, isRollupInput, numberAtom } from '../../rollups/rollupAtoms.js';
import type { DateValue } from '../dates.js';
import type { StoredValue } from '../storedValue.js';
import { dateColumns } from './columns.js';
import { formulaDate } from './date.js';
import { AS_STORED, noConfig, type Json, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { rollupConditions } from '../../query/conditions/rollup.js';

/** Rollups of rollups are followed this deep, so a cycle of rollups ends. */
const MAX_ROLLUP_DEPTH = 5;

/**
 * rollup: computed; the value is `{type: number|date|array, <type>: result, function}`. Its
 * configuration names a relation and a property of the related data source, so the schema editor
 * sets it, and formulaSchema.ts types it from its function.
 */
export const rollup: PropertyTypeDefinition = {
  normalize: null,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    const result = member as Json;
    if (result.type === 'number') into.number_value = (result.number as number | null) ?? null;
    if (result.type === 'date') dateColumns(into, result.date as DateValue | null);
  },
  emptyValue: (property) => ({ type: 'number', number: null, function: (property.rollup as { function: string }).function }),
  formulaType: () => T.string,
  toFormulaValue(member, world, toFormulaValue) {
    const result = member as Json;
    if (result.type === 'number') return (result.number as number | null) ?? null;
    if (result.type === 'date') return formulaDate(result.date as DateValue | null);
    if (result.type === 'array') {
      // Each element is itself a property value; a multi-valued one contributes its items.
      return (result.array as StoredValue[]).flatMap((item) => {
        const v = toFormulaValue(item, world);
        return Array.isArray(v) ? v : v === null ? [] : [v];
      });
    }
    return null;
  },
  atoms(member, depth, atomsOf) {
    if (!isRecord(member) || depth >= MAX_ROLLUP_DEPTH) return [];
    switch (member.type) {
      case 'number':
        return numberAtom(member.number);
      case 'date':
        return isRecord(member.date) ? dateAtom(member.date.start, member.date.end, member.date.time_zone) : [];
      case 'array':
        return Array.isArray(member.array) ? member.array.flatMap((item) => (isRollupInput(item) ? atomsOf(item, depth + 1) : [])) : [];
      default:
        return [];
    }
  },
  configure: noConfig,
  presentConfig: (config) => ({
    function: config.function,
    relation_property_id: config.relation_property_id,
    relation_property_name: config.relation_property_name,
    rollup_property_id: config.rollup_property_id,
    rollup_property_name: config.rollup_property_name,
  }),
  page: AS_STORED,
  filters: rollupConditions,
};

import type { FormulaValue } from '../../formulas/index.js';
import { numberAtom } from '../../rollups/rollupAtoms.js';
import { AS_STORED, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { numberConditions } from '../../query/conditions/number.js';

export const number: PropertyTypeDefinition = {
  normalize: (_ctx, _property, member) => member,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.number_value = typeof member === 'number' ? member : null;
  },
  emptyValue: () => null,
  formulaType: () => T.number,
  toFormulaValue: (member) => (member as FormulaValue) ?? null,
  atoms: (member) => numberAtom(member),
  configure: (member, existing) => ({ format: (member.format as string | undefined) ?? (existing as { format?: string } | undefined)?.format ?? 'number' }),
  presentConfig: (config) => ({ format: config.format ?? 'number' }),
  page: AS_STORED,
  filters: numberConditions,
};

import type { FormulaValue } from '../../formulas/index.js';
import { booleanAtom } from '../../rollups/rollupAtoms.js';
import { AS_STORED, noConfig, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { checkboxConditions } from '../../query/conditions/checkbox.js';

export const checkbox: PropertyTypeDefinition = {
  normalize: (_ctx, _property, member) => member,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.bool_value = member === true ? 1 : 0;
  },
  emptyValue: () => false,
  formulaType: () => T.boolean,
  toFormulaValue: (member) => (member as FormulaValue) ?? null,
  atoms: (member) => booleanAtom(member),
  configure: noConfig,
  presentConfig: noConfig,
  page: AS_STORED,
  filters: checkboxConditions,
};

import type { FormulaValue } from '../../formulas/index.js';
import { str, text } from '../../rollups/rollupAtoms.js';
import { AS_STORED, noConfig, textOrNull, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { textConditions } from '../../query/conditions/text.js';

/** url, email and phone_number: one string each, with the same rules (their limits are in the request schemas). */
const contactType: PropertyTypeDefinition = {
  // The service stores an empty string as no value.
  normalize: (_ctx, _property, member) => (member === '' ? null : member),
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    into.text_value = textOrNull(member as string | null);
  },
  emptyValue: () => null,
  formulaType: () => T.string,
  toFormulaValue: (member) => (member as FormulaValue) ?? null,
  atoms: (member) => text(str(member) ?? ''),
  configure: noConfig,
  presentConfig: noConfig,
  page: AS_STORED,
  filters: textConditions,
};

export const url: PropertyTypeDefinition = contactType;
export const email: PropertyTypeDefinition = contactType;
export const phoneNumber: PropertyTypeDefinition = contactType;

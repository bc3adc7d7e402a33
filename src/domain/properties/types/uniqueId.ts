import { isRecord, text } from '../../rollups/rollupAtoms.js';
import type { UniqueIdConfig } from '../schemaTypes.js';
import { AS_STORED, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { uniqueIdConditions } from '../../query/conditions/number.js';

interface UniqueId {
  prefix: string | null;
  number: number | null;
}

/** unique_id: computed; a page is numbered when created (writePageValues), shown as `<prefix>-<number>`. */
export const uniqueId: PropertyTypeDefinition = {
  normalize: null,
  multiValued: false,
  optionValues: false,
  columns(member, into) {
    const id = (member as UniqueId | null) ?? { prefix: null, number: null };
    into.number_value = id.number;
    into.text_value = id.number === null ? null : id.prefix ? `${id.prefix}-${id.number}` : String(id.number);
  },
  emptyValue: (property) => ({ prefix: (property.unique_id as { prefix: string | null }).prefix, number: null }),
  formulaType: () => T.number,
  toFormulaValue: (member) => (member as UniqueId).number,
  atoms(member) {
    if (!isRecord(member) || typeof member.number !== 'number') return [];
    return text(typeof member.prefix === 'string' && member.prefix !== '' ? `${member.prefix}-${member.number}` : String(member.number));
  },
  configure(member, existing) {
    const old = existing as UniqueIdConfig | undefined;
    return { prefix: member.prefix !== undefined ? member.prefix : (old?.prefix ?? null), next_number: old?.next_number ?? 1 };
  },
  // next_number is the server's counter: never shown.
  presentConfig: (config) => ({ prefix: config.prefix ?? null }),
  page: AS_STORED,
  filters: uniqueIdConditions,
};

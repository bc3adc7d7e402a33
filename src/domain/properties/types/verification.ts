import { stableKey } from '../../rollups/rollupAtoms.js';
import { checkDate, type DateInput, type DateValue } from '../dates.js';
import { dateColumns } from './columns.js';
import { AS_STORED, noConfig, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { verificationConditions } from '../../query/conditions/verification.js';

type VerificationInput = { state: 'verified'; date?: DateInput | null } | { state: 'unverified' };

/** verification: verified (by the request's actor, from a date) or not; read by its state. */
export const verification: PropertyTypeDefinition = {
  normalize(ctx, _property, member, path) {
    const input = member as VerificationInput | null;
    if (input === null || input.state === 'unverified') return { state: 'unverified', date: null, verified_by: null };
    const date = input.date ? checkDate(input.date, [...path, 'date']) : { start: new Date().toISOString(), end: null, time_zone: null };
    return { state: 'verified', date, verified_by: { object: 'user', id: ctx.actorId } };
  },
  multiValued: false,
  optionValues: false,
  // The state, and its dates as instants: `expired` is a verified value whose end has passed.
  columns(member, into) {
    const value = member as { state: string; date?: DateValue | null } | null;
    into.text_value = value?.state ?? null;
    dateColumns(into, value?.date);
  },
  emptyValue: () => ({ state: 'unverified', date: null, verified_by: null }),
  formulaType: () => T.string,
  toFormulaValue: (member) => (member as { state: string } | null)?.state ?? null,
  // One atom for the whole value: two verifications count alike when they are alike in every member.
  atoms: (member) => (member === null || member === undefined ? [] : [{ kind: 'other', key: `verification:${stableKey(member)}`, label: stableKey(member) }]),
  configure: noConfig,
  presentConfig: noConfig,
  page: AS_STORED,
  filters: verificationConditions,
};

import type { DateValue as FormulaDate } from '../../formulas/index.js';
import { dateAtom, isRecord } from '../../rollups/rollupAtoms.js';
import { checkDate, type DateInput, type DateValue } from '../dates.js';
import { dateColumns } from './columns.js';
import { AS_STORED, noConfig, type PropertyTypeDefinition } from './definition.js';
import { T } from '../../formulas/typeSystem.js';
import { dateConditions } from '../../query/conditions/date.js';

/** A stored date as the formula language reads it. */
export const formulaDate = (d: { start: string; end?: string | null; time_zone?: string | null } | null | undefined): FormulaDate | null =>
  d ? { start: d.start, end: d.end ?? null, time_zone: d.time_zone ?? null } : null;

export const date: PropertyTypeDefinition = {
  normalize: (_ctx, _property, member, path) => (member === null ? null : checkDate(member as DateInput, path)),
  multiValued: false,
  optionValues: false,
  columns: (member, into) => dateColumns(into, member as DateValue | null),
  emptyValue: () => null,
  formulaType: () => T.date,
  toFormulaValue: (member) => formulaDate(member as DateValue | null),
  atoms: (member) => (isRecord(member) ? dateAtom(member.start, member.end, member.time_zone) : []),
  configure: noConfig,
  presentConfig: noConfig,
  page: AS_STORED,
  filters: dateConditions,
};

import { S, T } from '../typeSystem.js';
import type { FormulaValue } from '../types.js';
import { dateRangeOf, formatValue, num } from '../values.js';
import { simple } from './functionDef.js';

/**
 * Text is read like JavaScript's parseFloat, so "11,000" is 11 and "abc" is empty;
 * booleans are 1/0 and dates their millisecond timestamp.
 */
export function toNumberValue(v: FormulaValue): number | null {
  if (typeof v === 'number') return num(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return num(parseFloat(v));
  const range = dateRangeOf(v);
  return range === null ? null : range.start.ms;
}

export const toNumberFn = simple('toNumber', [S.convertible], T.number, ([v]) => toNumberValue(v));

export const formatFn = simple('format', [S.any], T.string, ([v]) => formatValue(v));

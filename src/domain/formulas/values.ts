import { readDateValue, type DateRange } from './dateMath.js';
import { defaultDateText } from './formatDate.js';
import { MAX_LIST_LENGTH, MAX_TEXT_LENGTH } from './limits.js';
import type { Ty } from './typeSystem.js';
import type { DateValue, FormulaValue, PageValue, PersonValue } from './types.js';
import { isRecord } from '../isRecord.js';
export { isRecord };

export function isDateValue(v: unknown): v is DateValue {
  return isRecord(v) && typeof v.start === 'string' && !('kind' in v);
}

export function isPerson(v: unknown): v is PersonValue {
  return isRecord(v) && v.kind === 'person' && typeof v.id === 'string';
}

export function isPage(v: unknown): v is PageValue {
  return isRecord(v) && v.kind === 'page' && typeof v.id === 'string' && typeof v.getProperty === 'function';
}

export function dateRangeOf(v: FormulaValue): DateRange | null {
  return isDateValue(v) ? readDateValue(v) : null;
}

/** Numbers that are not finite (division by zero, sqrt(-1)) become empty, as in Notion. */
export function num(n: number): number | null {
  if (!Number.isFinite(n)) return null;
  // -0 would print as "0" but fail strict equality checks downstream.
  return n === 0 ? 0 : n;
}

export function asNumber(v: FormulaValue): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function asString(v: FormulaValue): string | null {
  return typeof v === 'string' ? v : null;
}

export function asList(v: FormulaValue): FormulaValue[] {
  return Array.isArray(v) ? v : [];
}

export function clampText(s: string): string {
  return s.length > MAX_TEXT_LENGTH ? s.slice(0, MAX_TEXT_LENGTH) : s;
}

export function clampList(items: FormulaValue[]): FormulaValue[] {
  return items.length > MAX_LIST_LENGTH ? items.slice(0, MAX_LIST_LENGTH) : items;
}

/** What empty() tests: Notion treats 0, false, "" and [] as empty too. */
export function isFalsyEmpty(v: FormulaValue): boolean {
  if (v === null || v === '' || v === 0 || v === false) return true;
  if (typeof v === 'number') return Number.isNaN(v);
  if (Array.isArray(v)) return v.length === 0;
  if (isDateValue(v)) return readDateValue(v) === null;
  return false;
}

export function valuesEqual(a: FormulaValue, b: FormulaValue): boolean {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => valuesEqual(item, b[i]));
  }
  if (isDateValue(a) || isDateValue(b)) {
    const ra = dateRangeOf(a);
    const rb = dateRangeOf(b);
    if (ra === null || rb === null) return ra === rb;
    return ra.start.ms === rb.start.ms && (ra.end?.ms ?? null) === (rb.end?.ms ?? null);
  }
  if (isPerson(a) || isPage(a)) return (isPerson(b) || isPage(b)) && a.kind === b.kind && a.id === b.id;
  return a === b;
}

/** Natural ordering for numbers, strings, booleans and dates; null when not comparable. */
export function compareValues(a: FormulaValue, b: FormulaValue): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const ra = dateRangeOf(a);
  const rb = dateRangeOf(b);
  if (ra !== null && rb !== null) return Math.sign(ra.start.ms - rb.start.ms);
  return null;
}

/** Text form used by format(), join(), `"text" + value` and list-typed API results. */
export function formatValue(v: FormulaValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return clampText(v.map(formatValue).join(','));
  if (isPerson(v)) return v.name ?? '';
  if (isPage(v)) return v.title;
  const range = dateRangeOf(v);
  return range === null ? '' : defaultDateText(range);
}

/**
 * Keeps a property value only if it has the declared type, so a caller bug
 * (e.g. a string where a number was declared) yields empty instead of
 * confusing every function downstream.
 */
export function conformToType(v: FormulaValue, t: Ty): FormulaValue {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'string':
      return typeof v === 'string' ? v : null;
    case 'number':
      return typeof v === 'number' ? num(v) : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date':
      return isDateValue(v) && readDateValue(v) !== null ? v : null;
    case 'person':
      return isPerson(v) ? v : null;
    case 'page':
      return isPage(v) ? v : null;
    case 'list': {
      if (!Array.isArray(v)) return null;
      const items: FormulaValue[] = [];
      for (const item of v) {
        const conformed = conformToType(item, t.of);
        if (conformed !== null) items.push(conformed);
      }
      return clampList(items);
    }
    case 'empty':
      return null;
  }
}

import { parseInstant } from '../formulas/dateMath.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';

export interface DateInput {
  start: string;
  end?: string | null;
  time_zone?: string | null;
}

export interface DateValue {
  start: string;
  end: string | null;
  time_zone: string | null;
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** UTC millisecond ISO of a date string (read in `timeZone` when it has no offset); null if not a date. */
export function utcIso(text: string, timeZone: string | null): string | null {
  // A date without time in a time zone starts at that zone's midnight (docs/decisions.md, "Date
  // values in filters"); the formula parser reads a bare date as a calendar date, in no zone.
  const instant = parseInstant(timeZone !== null && /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00` : text, timeZone);
  if (!instant) return null;
  const date = new Date(instant.ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * Checks a date value of a request. Strings are kept as written (a date stays a date, a date-time
 * keeps its offset); the typed columns get their UTC instants for filtering and sorting.
 */
export function checkDate(input: DateInput, path: FieldPath): DateValue {
  const timeZone = input.time_zone ?? null;
  if (timeZone !== null && !isTimeZone(timeZone)) throw invalidField([...path, 'time_zone'], 'should be an IANA time zone name', timeZone);
  const start = input.start.trim();
  if (utcIso(start, timeZone) === null) throw invalidField([...path, 'start'], 'should be an ISO 8601 date or date-time', input.start);
  const end = input.end == null ? null : input.end.trim();
  if (end !== null && utcIso(end, timeZone) === null) throw invalidField([...path, 'end'], 'should be an ISO 8601 date or date-time', input.end);
  return { start, end, time_zone: timeZone };
}

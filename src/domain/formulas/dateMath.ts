import type { DateValue } from './types.js';

/**
 * A point in time plus the UTC offset its wall-clock fields are read in.
 * Calendar arithmetic (days, months) happens on the wall clock, like Moment.js,
 * which Notion's date functions follow.
 */
export interface Instant {
  ms: number;
  /** Minutes east of UTC. */
  offset: number;
  dateOnly: boolean;
}

export interface DateRange {
  start: Instant;
  end: Instant | null;
}

export interface WallClock {
  year: number;
  /** 0-11 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** 0 = Sunday */
  weekday: number;
}

export const DATE_UNITS = ['years', 'quarters', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds'] as const;
export type DateUnit = (typeof DATE_UNITS)[number];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
// ECMAScript's representable range; beyond it Date methods return NaN.
const MAX_MS = 8.64e15;

export function parseUnit(text: string): DateUnit | null {
  const lower = text.trim().toLowerCase();
  const plural = lower.endsWith('s') ? lower : `${lower}s`;
  return (DATE_UNITS as readonly string[]).includes(plural) ? (plural as DateUnit) : null;
}

export function isValidInstant(i: Instant): boolean {
  return Number.isFinite(i.ms) && Math.abs(i.ms) <= MAX_MS;
}

const ISO = /^([+-]\d{6}|\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

/**
 * Parses ISO 8601 calendar dates and date-times ("2024", "2024-02", "2024-02-29",
 * "2024-02-29T10:00", "...Z", "...+02:00"). Times without an offset are read in
 * `timeZone` when it is a valid IANA zone, otherwise in UTC.
 */
export function parseInstant(text: string, timeZone: string | null = null): Instant | null {
  const m = ISO.exec(text.trim());
  if (m === null) return null;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 0 : Number(m[2]) - 1;
  const day = m[3] === undefined ? 1 : Number(m[3]);
  if (month < 0 || month > 11 || day < 1 || day > daysInMonth(year, month)) return null;
  if (m[4] === undefined) {
    const ms = utc(year, month, day, 0, 0, 0, 0);
    return Number.isNaN(ms) ? null : { ms, offset: 0, dateOnly: true };
  }
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millisecond = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const wall = utc(year, month, day, hour, minute, second, millisecond);
  let offset: number;
  if (m[8] !== undefined) {
    offset = parseOffset(m[8]);
  } else if (timeZone !== null) {
    offset = zoneOffsetForWallTime(timeZone, wall) ?? 0;
  } else {
    offset = 0;
  }
  const instant = { ms: wall - offset * MINUTE_MS, offset, dateOnly: false };
  return isValidInstant(instant) ? instant : null;
}

function parseOffset(text: string): number {
  if (text.toUpperCase() === 'Z') return 0;
  const sign = text[0] === '-' ? -1 : 1;
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes);
}

/** Reads a DateValue into instants; null when the start is not a valid date. */
export function readDateValue(v: DateValue): DateRange | null {
  const start = parseInstant(v.start, v.time_zone);
  if (start === null) return null;
  const end = v.end === null ? null : parseInstant(v.end, v.time_zone);
  return { start, end };
}

export function toDateValue(range: DateRange): DateValue | null {
  if (!isValidInstant(range.start) || (range.end !== null && !isValidInstant(range.end))) return null;
  return { start: formatIso(range.start), end: range.end === null ? null : formatIso(range.end), time_zone: null };
}

export function formatIso(i: Instant): string {
  const w = wallClock(i);
  const date = `${isoYear(w.year)}-${pad(w.month + 1, 2)}-${pad(w.day, 2)}`;
  if (i.dateOnly) return date;
  if (i.offset === 0) return new Date(i.ms).toISOString();
  const sign = i.offset < 0 ? '-' : '+';
  const abs = Math.abs(i.offset);
  const time = `${pad(w.hour, 2)}:${pad(w.minute, 2)}:${pad(w.second, 2)}.${pad(w.millisecond, 3)}`;
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

function isoYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function wallClock(i: Instant): WallClock {
  const d = new Date(i.ms + i.offset * MINUTE_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
  };
}

function fromWall(w: Omit<WallClock, 'weekday'>, like: Instant): Instant {
  const wallMs = utc(w.year, w.month, w.day, w.hour, w.minute, w.second, w.millisecond);
  return { ms: wallMs - like.offset * MINUTE_MS, offset: like.offset, dateOnly: like.dateOnly };
}

/** Date.UTC without its two-digit-year quirk. */
function utc(year: number, month: number, day: number, h: number, mi: number, s: number, ms: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(h, mi, s, ms);
  return d.getTime();
}

export function daysInMonth(year: number, month: number): number {
  return new Date(utc(year, month + 1, 0, 0, 0, 0, 0)).getUTCDate();
}

/** Adds whole months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 29 in 2024). */
function addMonths(i: Instant, months: number): Instant {
  const w = wallClock(i);
  const total = w.year * 12 + w.month + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  return fromWall({ ...w, year, month, day: Math.min(w.day, daysInMonth(year, month)) }, i);
}

function addDays(i: Instant, days: number): Instant {
  const w = wallClock(i);
  return fromWall({ ...w, day: w.day + days }, i);
}

// Moment rounds half away from zero when turning fractional calendar amounts into whole units.
function roundAway(n: number): number {
  return Math.sign(n) * Math.round(Math.abs(n));
}

export function addToInstant(i: Instant, amount: number, unit: DateUnit): Instant {
  switch (unit) {
    case 'years':
      return addMonths(i, roundAway(amount * 12));
    case 'quarters':
      return addMonths(i, roundAway(amount * 3));
    case 'months':
      return addMonths(i, roundAway(amount));
    case 'weeks':
      return addDays(i, roundAway(amount * 7));
    case 'days':
      return addDays(i, roundAway(amount));
    case 'hours':
      return addExact(i, amount * 3_600_000);
    case 'minutes':
      return addExact(i, amount * MINUTE_MS);
    case 'seconds':
      return addExact(i, amount * 1000);
    case 'milliseconds':
      return addExact(i, amount);
  }
}

// Adding a time amount to a date-only value produces a date-time.
function addExact(i: Instant, ms: number): Instant {
  return { ms: i.ms + Math.round(ms), offset: i.offset, dateOnly: false };
}

/**
 * `a - b` in whole units, truncated toward zero, with Moment's `diff` semantics:
 * months compare wall-clock positions within the month, days/weeks use wall-clock
 * time, hours and smaller use elapsed time.
 */
export function dateDifference(a: Instant, b: Instant, unit: DateUnit): number {
  let out: number;
  const wallDelta = a.ms + a.offset * MINUTE_MS - (b.ms + b.offset * MINUTE_MS);
  switch (unit) {
    case 'years':
      out = monthDiff(a, b) / 12;
      break;
    case 'quarters':
      out = monthDiff(a, b) / 3;
      break;
    case 'months':
      out = monthDiff(a, b);
      break;
    case 'weeks':
      out = wallDelta / (7 * DAY_MS);
      break;
    case 'days':
      out = wallDelta / DAY_MS;
      break;
    case 'hours':
      out = (a.ms - b.ms) / 3_600_000;
      break;
    case 'minutes':
      out = (a.ms - b.ms) / MINUTE_MS;
      break;
    case 'seconds':
      out = (a.ms - b.ms) / 1000;
      break;
    case 'milliseconds':
      out = a.ms - b.ms;
      break;
  }
  const truncated = Math.trunc(out);
  return truncated === 0 ? 0 : truncated;
}

// Port of Moment's monthDiff: whole months plus the fraction of the month
// between the two anchors surrounding `b`.
function monthDiff(a: Instant, b: Instant): number {
  if (wallClock(a).day < wallClock(b).day) return -monthDiff(b, a);
  const wa = wallClock(a);
  const wb = wallClock(b);
  const whole = (wb.year - wa.year) * 12 + (wb.month - wa.month);
  const anchor = addMonths(a, whole);
  let adjust: number;
  if (b.ms - anchor.ms < 0) {
    const anchor2 = addMonths(a, whole - 1);
    adjust = (b.ms - anchor.ms) / (anchor.ms - anchor2.ms);
  } else {
    const anchor2 = addMonths(a, whole + 1);
    adjust = (b.ms - anchor.ms) / (anchor2.ms - anchor.ms);
  }
  const result = -(whole + adjust);
  return result === 0 ? 0 : result;
}

/** ISO 8601 week number (weeks start on Monday; week 1 contains the year's first Thursday). */
export function isoWeek(i: Instant): number {
  const w = wallClock(i);
  const dayIndex = (w.weekday + 6) % 7;
  const thursday = utc(w.year, w.month, w.day - dayIndex + 3, 0, 0, 0, 0);
  const yearStart = utc(new Date(thursday).getUTCFullYear(), 0, 1, 0, 0, 0, 0);
  return 1 + Math.floor((thursday - yearStart) / (7 * DAY_MS));
}

export function dayOfYear(i: Instant): number {
  const w = wallClock(i);
  return Math.round((utc(w.year, w.month, w.day, 0, 0, 0, 0) - utc(w.year, 0, 1, 0, 0, 0, 0)) / DAY_MS) + 1;
}

const zoneFormatters = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormatter(timeZone: string): Intl.DateTimeFormat | null {
  let f = zoneFormatters.get(timeZone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    // The cache is keyed by caller-supplied strings, so keep it bounded.
    if (zoneFormatters.size > 500) zoneFormatters.clear();
    zoneFormatters.set(timeZone, f);
  }
  return f;
}

function zoneOffsetAt(timeZone: string, utcMs: number): number | null {
  const f = zoneFormatter(timeZone);
  if (f === null) return null;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const asUtc = utc(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second, 0);
  return Math.round((asUtc - (utcMs - (((utcMs % 1000) + 1000) % 1000))) / MINUTE_MS);
}

function zoneOffsetForWallTime(timeZone: string, wallMs: number): number | null {
  const first = zoneOffsetAt(timeZone, wallMs);
  if (first === null) return null;
  // A second pass settles times near a DST transition.
  return zoneOffsetAt(timeZone, wallMs - first * MINUTE_MS) ?? first;
}

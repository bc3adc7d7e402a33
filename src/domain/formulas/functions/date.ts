import {
  DATE_UNITS,
  addToInstant,
  dateDifference,
  isoWeek,
  parseInstant,
  parseUnit,
  toDateValue,
  wallClock,
  type DateRange,
  type DateUnit,
  type Instant,
  type WallClock,
} from '../dateMath.js';
import { formatDate } from '../formatDate.js';
import { S, T } from '../typeSystem.js';
import type { FormulaValue } from '../types.js';
import { asNumber, dateRangeOf } from '../values.js';
import { simple, type CheckCall, type FunctionDef } from './functionDef.js';

function checkLiteralUnit(c: CheckCall, i: number): void {
  const literal = c.literal(i);
  if (typeof literal === 'string' && parseUnit(literal) === null) {
    c.fail(i, `Unknown date unit "${literal}"; expected one of ${DATE_UNITS.join(', ')}`);
  }
}

function unitOf(v: FormulaValue): DateUnit | null {
  return typeof v === 'string' ? parseUnit(v) : null;
}

function nowInstant(now: Date): Instant {
  return { ms: now.getTime(), offset: 0, dateOnly: false };
}

export const nowFn = simple('now', [], T.date, (_, c) => toDateValue({ start: nowInstant(c.rt.now), end: null }));

/** today() is the current UTC calendar date, without a time. */
export const todayFn = simple('today', [], T.date, (_, c) => {
  const ms = c.rt.now.getTime();
  if (!Number.isFinite(ms)) return null;
  return toDateValue({ start: { ms: ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000), offset: 0, dateOnly: true }, end: null });
});

function part(name: string, read: (w: WallClock, i: Instant) => number): FunctionDef {
  return simple(name, [S.date], T.number, ([d]) => {
    const range = dateRangeOf(d);
    return range === null ? null : read(wallClock(range.start), range.start);
  });
}

export const minuteFn = part('minute', (w) => w.minute);
export const hourFn = part('hour', (w) => w.hour);
/** Day of the week, 1 (Monday) to 7 (Sunday), as in Formulas 2.0. */
export const dayFn = part('day', (w) => (w.weekday === 0 ? 7 : w.weekday));
/** Day of the month, 1-31. */
export const dateFn = part('date', (w) => w.day);
export const weekFn = part('week', (_, i) => isoWeek(i));
/** Month, 1-12, as in Formulas 2.0. */
export const monthFn = part('month', (w) => w.month + 1);
export const yearFn = part('year', (w) => w.year);

function shift(name: string, sign: 1 | -1): FunctionDef {
  const base = simple(name, [S.date, S.number, S.string], T.date, ([d, amount, unitText]) => {
    const range = dateRangeOf(d);
    const n = asNumber(amount);
    const unit = unitOf(unitText);
    if (range === null || n === null || unit === null) return null;
    // Ranges move as a whole.
    return toDateValue({
      start: addToInstant(range.start, sign * n, unit),
      end: range.end === null ? null : addToInstant(range.end, sign * n, unit),
    });
  });
  return {
    ...base,
    check(c) {
      base.check(c);
      checkLiteralUnit(c, 2);
      return T.date;
    },
  };
}

export const dateAddFn = shift('dateAdd', 1);
export const dateSubtractFn = shift('dateSubtract', -1);

const dateBetweenBase = simple('dateBetween', [S.date, S.date, S.string], T.number, ([a, b, unitText]) => {
  const ra = dateRangeOf(a);
  const rb = dateRangeOf(b);
  const unit = unitOf(unitText);
  if (ra === null || rb === null || unit === null) return null;
  return dateDifference(ra.start, rb.start, unit);
});

/** dateBetween(a, b, unit) is a - b in whole units, truncated toward zero. */
export const dateBetweenFn: FunctionDef = {
  ...dateBetweenBase,
  check(c) {
    dateBetweenBase.check(c);
    checkLiteralUnit(c, 2);
    return T.number;
  },
};

/** dateRange(start, end); reversed arguments are swapped so the range is never backwards. */
export const dateRangeFn = simple('dateRange', [S.date, S.date], T.date, ([a, b]) => {
  const ra = dateRangeOf(a);
  const rb = dateRangeOf(b);
  if (ra === null || rb === null) return null;
  const [start, end] = ra.start.ms <= rb.start.ms ? [ra.start, rb.start] : [rb.start, ra.start];
  return toDateValue({ start, end });
});

function single(pick: (r: DateRange) => Instant): (args: FormulaValue[]) => FormulaValue {
  return ([d]) => {
    const range = dateRangeOf(d);
    return range === null ? null : toDateValue({ start: pick(range), end: null });
  };
}

export const dateStartFn = simple(
  'dateStart',
  [S.date],
  T.date,
  single((r) => r.start),
);
/** The end of a range; a single date is its own end. */
export const dateEndFn = simple(
  'dateEnd',
  [S.date],
  T.date,
  single((r) => r.end ?? r.start),
);

export const timestampFn = simple('timestamp', [S.date], T.number, ([d]) => dateRangeOf(d)?.start.ms ?? null);

export const fromTimestampFn = simple('fromTimestamp', [S.number], T.date, ([n]) => {
  const ms = asNumber(n);
  return ms === null ? null : toDateValue({ start: { ms: Math.trunc(ms), offset: 0, dateOnly: false }, end: null });
});

/** Formats the start of the date with Moment.js tokens. */
export const formatDateFn = simple('formatDate', [S.date, S.string], T.string, ([d, pattern]) => {
  const range = dateRangeOf(d);
  return range === null ? null : formatDate(range.start, typeof pattern === 'string' ? pattern : '');
});

/** ISO 8601 only; anything else is empty, matching Notion's parseDate(""). */
export const parseDateFn = simple('parseDate', [S.string], T.date, ([s]) => {
  if (typeof s !== 'string') return null;
  const start = parseInstant(s);
  return start === null ? null : toDateValue({ start, end: null });
});

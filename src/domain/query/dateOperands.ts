/**
 * Date operands of filters (docs/decisions.md, "A date condition's operand" and "The relative
 * windows"), resolved against the query's clock in UTC. Instants are ISO strings in the form
 * Date#toISOString writes, the form of every stored date column, so comparing them as text
 * compares them as times.
 */

/** An instant, or a whole UTC day [from, to). */
export type DateOperand = { kind: 'instant'; at: string } | { kind: 'day'; from: string; to: string };

export const RELATIVE_DATES = ['today', 'tomorrow', 'yesterday', 'one_week_ago', 'one_week_from_now', 'one_month_ago', 'one_month_from_now'] as const;
export const DATE_WINDOWS = ['past_week', 'past_month', 'past_year', 'next_week', 'next_month', 'next_year', 'this_week'] as const;
export type DateWindow = (typeof DATE_WINDOWS)[number];

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Midnight UTC of a day given by its parts, or null when they name no such day (2026-02-30). */
function utcDay(year: number, month: number, day: number): number | null {
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return ms;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const dayOf = (ms: number): DateOperand => ({ kind: 'day', from: iso(ms), to: iso(ms + DAY_MS) });
const startOfUtcDay = (now: Date): number => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

/** The same day `months` calendar months away, clamped to the month's last day (31 March − 1 month = end of February). */
function addMonths(dayMs: number, months: number): number {
  const d = new Date(dayMs);
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
  const lastDay = new Date(Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(new Date(target).getUTCFullYear(), new Date(target).getUTCMonth(), Math.min(d.getUTCDate(), lastDay));
}

/** Parses an ISO 8601 date or date-time (no offset: UTC) or a relative value; null when it is none of them. */
export function parseDateOperand(text: string, now: Date): DateOperand | null {
  const today = startOfUtcDay(now);
  switch (text) {
    case 'today':
      return dayOf(today);
    case 'tomorrow':
      return dayOf(today + DAY_MS);
    case 'yesterday':
      return dayOf(today - DAY_MS);
    case 'one_week_ago':
      return dayOf(today - 7 * DAY_MS);
    case 'one_week_from_now':
      return dayOf(today + 7 * DAY_MS);
    case 'one_month_ago':
      return dayOf(addMonths(today, -1));
    case 'one_month_from_now':
      return dayOf(addMonths(today, 1));
  }
  const date = DATE_ONLY.exec(text);
  if (date) {
    const ms = utcDay(Number(date[1]), Number(date[2]), Number(date[3]));
    return ms === null ? null : dayOf(ms);
  }
  const dateTime = DATE_TIME.exec(text);
  if (!dateTime) return null;
  if (utcDay(Number(dateTime[1]), Number(dateTime[2]), Number(dateTime[3])) === null) return null;
  if (Number(dateTime[4]) > 23 || Number(dateTime[5]) > 59 || Number(dateTime[6] ?? 0) > 59) return null;
  const ms = Date.parse(dateTime[8] ? text : `${text}Z`);
  return Number.isNaN(ms) ? null : { kind: 'instant', at: iso(ms) };
}

/** A window as [from, to) instants; a value matches when its range overlaps it. */
export function windowOf(window: DateWindow, now: Date): { from: string; to: string } {
  const today = startOfUtcDay(now);
  const tomorrow = today + DAY_MS;
  switch (window) {
    case 'past_week':
      return { from: iso(today - 7 * DAY_MS), to: iso(tomorrow) };
    case 'past_month':
      return { from: iso(addMonths(today, -1)), to: iso(tomorrow) };
    case 'past_year':
      return { from: iso(addMonths(today, -12)), to: iso(tomorrow) };
    case 'next_week':
      return { from: iso(today), to: iso(today + 8 * DAY_MS) };
    case 'next_month':
      return { from: iso(today), to: iso(addMonths(today, 1) + DAY_MS) };
    case 'next_year':
      return { from: iso(today), to: iso(addMonths(today, 12) + DAY_MS) };
    case 'this_week': {
      // ISO weeks start on Monday; getUTCDay() counts from Sunday.
      const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
      return { from: iso(monday), to: iso(monday + 7 * DAY_MS) };
    }
  }
}

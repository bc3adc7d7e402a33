import { dayOfYear, isoWeek, pad, wallClock, type DateRange, type Instant } from './dateMath.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// Longest first, so "MMMM" is not read as "MM" + "MM".
const TOKENS = [
  'YYYY',
  'MMMM',
  'dddd',
  'DDDD',
  'MMM',
  'ddd',
  'DDD',
  'SSS',
  'YY',
  'MM',
  'Do',
  'DD',
  'HH',
  'hh',
  'mm',
  'ss',
  'WW',
  'ZZ',
  'M',
  'D',
  'd',
  'H',
  'h',
  'm',
  's',
  'A',
  'a',
  'Q',
  'W',
  'X',
  'x',
  'Z',
];

function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

function offsetText(minutes: number, separator: string): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60), 2)}${separator}${pad(abs % 60, 2)}`;
}

function tokenValue(token: string, i: Instant): string {
  const w = wallClock(i);
  const hour12 = w.hour % 12 === 0 ? 12 : w.hour % 12;
  switch (token) {
    case 'YYYY':
      return pad(w.year, 4);
    case 'YY':
      return pad(((w.year % 100) + 100) % 100, 2);
    case 'Q':
      return String(Math.floor(w.month / 3) + 1);
    case 'MMMM':
      return MONTHS[w.month];
    case 'MMM':
      return MONTHS[w.month].slice(0, 3);
    case 'MM':
      return pad(w.month + 1, 2);
    case 'M':
      return String(w.month + 1);
    case 'DDDD':
      return pad(dayOfYear(i), 3);
    case 'DDD':
      return String(dayOfYear(i));
    case 'Do':
      return ordinal(w.day);
    case 'DD':
      return pad(w.day, 2);
    case 'D':
      return String(w.day);
    case 'dddd':
      return WEEKDAYS[w.weekday];
    case 'ddd':
      return WEEKDAYS[w.weekday].slice(0, 3);
    case 'd':
      return String(w.weekday);
    case 'WW':
      return pad(isoWeek(i), 2);
    case 'W':
      return String(isoWeek(i));
    case 'HH':
      return pad(w.hour, 2);
    case 'H':
      return String(w.hour);
    case 'hh':
      return pad(hour12, 2);
    case 'h':
      return String(hour12);
    case 'mm':
      return pad(w.minute, 2);
    case 'm':
      return String(w.minute);
    case 'ss':
      return pad(w.second, 2);
    case 's':
      return String(w.second);
    case 'SSS':
      return pad(w.millisecond, 3);
    case 'A':
      return w.hour < 12 ? 'AM' : 'PM';
    case 'a':
      return w.hour < 12 ? 'am' : 'pm';
    case 'X':
      return String(Math.floor(i.ms / 1000));
    case 'x':
      return String(i.ms);
    case 'ZZ':
      return offsetText(i.offset, '');
    case 'Z':
      return offsetText(i.offset, ':');
    default:
      return token;
  }
}

/** Formats with Moment.js tokens; text inside [brackets] is copied literally. */
export function formatDate(i: Instant, pattern: string): string {
  let out = '';
  let pos = 0;
  while (pos < pattern.length) {
    if (pattern[pos] === '[') {
      const close = pattern.indexOf(']', pos + 1);
      if (close > 0) {
        out += pattern.slice(pos + 1, close);
        pos = close + 1;
        continue;
      }
    }
    const token = TOKENS.find((t) => pattern.startsWith(t, pos));
    if (token === undefined) {
      out += pattern[pos];
      pos++;
    } else {
      out += tokenValue(token, i);
      pos += token.length;
    }
  }
  return out;
}

/** Notion's default rendering: "January 31, 2024", "January 31, 2024 3:05 PM", ranges joined by " → ". */
export function defaultDateText(range: DateRange): string {
  const one = (i: Instant): string => formatDate(i, i.dateOnly ? 'MMMM D, YYYY' : 'MMMM D, YYYY h:mm A');
  return range.end === null ? one(range.start) : `${one(range.start)} → ${one(range.end)}`;
}

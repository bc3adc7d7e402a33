/**
 * Table of formula cases, evaluated against the fixtures in ./fixtures.ts
 * (schema PROPERTIES, values BASE_VALUES merged with `props`, now = NOW).
 * Cases whose expression reads "Tasks" need the related task pages of
 * TASKS; cases reading "Owner"/"People" need the people ADA and ALAN.
 */
import type { ApiFormulaValue, FormulaType, FormulaValue } from '../../src/domain/formulas/index.js';
import { ADA, ALAN, NOW, PAGE_ID, TASK_PAGES, dateValue } from './fixtures.js';

export interface FormulaCase {
  /** Unique label; defaults to the expression in test names. */
  name?: string;
  expression: string;
  /** Property values overriding BASE_VALUES for this case. */
  props?: Record<string, FormulaValue>;
  expected?: FormulaValue;
  /** Expected static result type. */
  type?: FormulaType;
  /** Expected API presentation of the result. */
  api?: ApiFormulaValue;
  /** For compile errors: the message must match and the position must be exact. */
  error?: RegExp;
  position?: number;
}

const N: FormulaType = { kind: 'number' };
const S: FormulaType = { kind: 'string' };
const B: FormulaType = { kind: 'boolean' };
const D: FormulaType = { kind: 'date' };
const list = (of: FormulaType): FormulaType => ({ kind: 'list', of });

/** Position of the first occurrence of `needle` (after `from`) in `expression`, for readable error cases. */
function at(expression: string, needle: string, from = 0): number {
  const i = expression.indexOf(needle, from);
  if (i < 0) throw new Error(`"${needle}" not found in ${expression}`);
  return i;
}

function err(expression: string, error: RegExp, position: number): FormulaCase {
  return { expression, error, position };
}

export const operatorCases: FormulaCase[] = [
  { expression: '1 + 2 * 3', expected: 7, type: N },
  { expression: '(1 + 2) * 3', expected: 9 },
  { expression: '10 - 4 - 3', expected: 3 },
  { expression: '2 ^ 3 ^ 2', expected: 512, name: 'power is right-associative' },
  { expression: '-2 ^ 2', expected: 4, name: 'unary minus binds tighter than ^' },
  { expression: '- 2 ^ 2', expected: 4 },
  { expression: '2 ^ -1', expected: 0.5 },
  { expression: '2 * 3 + 4 * 5', expected: 26 },
  { expression: '7 % 3', expected: 1 },
  { expression: '-7 % 3', expected: -1 },
  { expression: '10 / 4', expected: 2.5 },
  { expression: '1 / 0', expected: null, name: 'division by zero is empty' },
  { expression: '0 / 0', expected: null },
  { expression: '5 % 0', expected: null },
  { expression: '1.5e3 + 1', expected: 1501 },
  { expression: '"Hello" + " " + "World"', expected: 'Hello World', type: S },
  { expression: '"n=" + 5', expected: 'n=5', type: S },
  { expression: '"ok: " + true', expected: 'ok: true' },
  { expression: '1 + 2 + "x"', expected: '3x', name: '+ is left-associative across types' },
  { expression: '+"42"', expected: 42, type: N },
  { expression: '-prop("Count")', expected: -5 },
  { expression: 'prop("Count") + prop("Price")', expected: 7.5 },
  { expression: 'prop("Blank Number") + 1', expected: null, name: 'arithmetic with an empty number is empty' },
  { expression: '1 < 2 == true', expected: true },
  { expression: '1 + 2 > 2 and 3 < 4', expected: true },
  { expression: 'true or false and false', expected: true, name: 'and binds tighter than or' },
  { expression: '(true or false) and false', expected: false },
  { expression: 'not true or true', expected: true },
  { expression: '!false && true', expected: true },
  { expression: 'false || !true', expected: false },
  { expression: '1 == 1 ? "yes" : "no"', expected: 'yes' },
  { expression: 'false ? 1 : true ? 2 : 3', expected: 2, name: 'ternary is right-associative' },
  { expression: '"b" > "a"', expected: true },
  { expression: 'true > false', expected: true },
  { expression: '"abc" == "abc"', expected: true },
  { expression: '1 != 2', expected: true },
  { expression: '3 >= 3 and 2 <= 1', expected: false },
  { expression: 'prop("Due") < prop("Meeting")', expected: true },
  { expression: 'prop("Due") == parseDate("2024-01-31")', expected: true },
  { expression: '[1, 2] == [1, 2]', expected: true },
  { expression: 'prop("Blank Number") > 1', expected: false, name: 'comparing with empty is false' },
  { expression: 'e', expected: Math.E },
  { expression: 'round(pi * 100) / 100', expected: 3.14 },
  { expression: String.raw`length("a\"b\\c\nd")`, expected: 7, name: 'string escapes' },
  { expression: String.raw`"\u0041"`, expected: 'A' },
  { expression: '/* a comment */ 1 + 1', expected: 2 },
  { expression: '"abc".upper().length()', expected: 3, name: 'method chaining' },
];

export const logicCases: FormulaCase[] = [
  { expression: 'if(prop("Done"), "done", "todo")', expected: 'done', type: S },
  { expression: 'if(prop("Done"), "done", "todo")', props: { Done: false }, expected: 'todo', name: 'if false branch' },
  { expression: 'ifs(prop("Count") > 10, "big", prop("Count") > 3, "medium", "small")', expected: 'medium' },
  { expression: 'ifs(prop("Count") > 10, "big", prop("Count") > 3, "medium", "small")', props: { Count: 1 }, expected: 'small', name: 'ifs else' },
  { expression: 'ifs(false, 1, false, 2)', expected: null, type: N, name: 'ifs without else is empty' },
  { expression: 'empty(prop("Blank Text"))', expected: true, type: B },
  { expression: 'empty(0)', expected: true },
  { expression: 'empty("x")', expected: false },
  { expression: 'empty([])', expected: true },
  { expression: 'empty([0])', expected: false },
  { expression: 'empty(prop("Blank Date"))', expected: true },
  { expression: 'prop("Blank Number") == empty()', expected: true, name: 'empty() is the empty value' },
  { expression: 'prop("Count") == empty()', expected: false },
  { expression: 'if(prop("Done"), 1, empty())', expected: 1, type: N },
  { expression: 'not empty(prop("Text"))', expected: true },
];

export const textCases: FormulaCase[] = [
  { expression: 'length("Hello")', expected: 5, type: N },
  { expression: 'prop("Tags").length()', expected: 4 },
  { expression: 'length(prop("Blank Text"))', expected: 0 },
  { expression: 'substring("Hello World", 6)', expected: 'World' },
  { expression: 'substring("Hello World", 0, 5)', expected: 'Hello' },
  { expression: 'contains("Hello World", "World")', expected: true },
  { expression: 'contains("Hello World", "world")', expected: false },
  { expression: 'contains(prop("Tags"), "c")', expected: true, name: 'contains on a list reads it as text' },
  { expression: String.raw`test("abc123", "\\d+")`, expected: true },
  { expression: String.raw`test("abc", "\d")`, expected: false, name: 'single-backslash regex escape' },
  { expression: 'test("abc", "B")', expected: false, name: 'test is case-sensitive' },
  { expression: 'test(42, "^4")', expected: true, name: 'test reads numbers as text' },
  { expression: String.raw`match("a1b22c333", "\\d+")`, expected: ['1', '22', '333'], type: list(S) },
  { expression: 'match("abc", "x")', expected: [] },
  { expression: 'replace("aaa", "a", "b")', expected: 'baa' },
  { expression: 'replaceAll("aaa", "a", "b")', expected: 'bbb' },
  { expression: String.raw`replace("John Smith", "(\\w+) (\\w+)", "$2, $1")`, expected: 'Smith, John' },
  { expression: 'replaceAll("2024-01-31", "-", "/")', expected: '2024/01/31' },
  { expression: 'lower("HeLLo")', expected: 'hello' },
  { expression: 'upper("abc")', expected: 'ABC' },
  { expression: 'repeat("ab", 3)', expected: 'ababab' },
  { expression: 'repeat("x", 0)', expected: '' },
  { expression: 'padStart("7", 3, "0")', expected: '007' },
  { expression: 'padEnd("ab", 5, ".")', expected: 'ab...' },
  { expression: 'padStart("abc", 2, "0")', expected: 'abc' },
  { expression: 'link("Notion", "https://notion.so")', expected: 'Notion', type: S },
  { expression: 'style("Hi", "b", "red")', expected: 'Hi' },
  { expression: 'unstyle("Hi")', expected: 'Hi' },
  { expression: 'format(42)', expected: '42', type: S },
  { expression: 'format(true)', expected: 'true' },
  { expression: 'format(prop("Due"))', expected: 'January 31, 2024' },
  { expression: 'format(prop("Meeting"))', expected: 'March 10, 2024 2:30 PM' },
  { expression: 'format(prop("Range"))', expected: 'January 1, 2024 → January 5, 2024' },
  { expression: 'format([1, 2, 3])', expected: '1,2,3' },
  { expression: 'prop("Owner").format()', expected: 'Ada Lovelace' },
  { expression: 'toNumber("42")', expected: 42, type: N },
  { expression: 'toNumber("11,000")', expected: 11, name: 'toNumber reads a numeric prefix' },
  { expression: 'toNumber("abc")', expected: null },
  { expression: 'toNumber(true)', expected: 1 },
  { expression: 'toNumber(parseDate("2024-01-01"))', expected: 1704067200000 },
  { expression: 'split("a,b,c", ",")', expected: ['a', 'b', 'c'], type: list(S) },
  { expression: 'join(["a", "b"], " & ")', expected: 'a & b' },
];

export const mathCases: FormulaCase[] = [
  { expression: 'add(2, 3)', expected: 5 },
  { expression: 'add("a", "b")', expected: 'ab', type: S },
  { expression: 'subtract(10, 4)', expected: 6 },
  { expression: 'multiply(3, 4)', expected: 12 },
  { expression: 'divide(9, 3)', expected: 3 },
  { expression: 'divide(1, 0)', expected: null },
  { expression: 'pow(2, 10)', expected: 1024 },
  { expression: 'mod(10, 3)', expected: 1 },
  { expression: 'min(3, 1, 2)', expected: 1 },
  { expression: 'max(prop("Scores"))', expected: 3 },
  { expression: 'min([4, 2], 3)', expected: 2 },
  { expression: 'max([])', expected: null },
  { expression: 'sum(1, 2, 3)', expected: 6 },
  { expression: 'prop("Scores").sum()', expected: 6 },
  { expression: 'sum([])', expected: 0 },
  { expression: 'mean([1, 2, 3, 4])', expected: 2.5 },
  { expression: 'median([3, 1, 2])', expected: 2 },
  { expression: 'median([4, 1, 3, 2])', expected: 2.5 },
  { expression: 'abs(-5)', expected: 5 },
  { expression: 'round(4.5)', expected: 5 },
  { expression: 'round(-4.5)', expected: -4, name: 'round halves toward +infinity' },
  { expression: '-4.5.round()', expected: -4, name: 'minus sign belongs to the literal before a method' },
  { expression: 'round(4.49)', expected: 4 },
  { expression: 'ceil(4.1)', expected: 5 },
  { expression: 'ceil(-4.1)', expected: -4 },
  { expression: 'floor(-4.1)', expected: -5 },
  { expression: 'sqrt(16)', expected: 4 },
  { expression: 'sqrt(-1)', expected: null },
  { expression: 'cbrt(27)', expected: 3 },
  { expression: 'exp(0)', expected: 1 },
  { expression: 'ln(e)', expected: 1 },
  { expression: 'log10(1000)', expected: 3 },
  { expression: 'log2(8)', expected: 3 },
  { expression: 'sign(-3)', expected: -1 },
  { expression: 'sign(0)', expected: 0 },
];

export const dateCases: FormulaCase[] = [
  { expression: 'now()', expected: dateValue(NOW.toISOString()), type: D },
  { expression: 'today()', expected: dateValue('2024-06-15') },
  { expression: 'minute(now())', expected: 34 },
  { expression: 'hour(now())', expected: 12 },
  { expression: 'day(now())', expected: 6, name: 'day() of a Saturday' },
  { expression: 'day(parseDate("2024-06-16"))', expected: 7, name: 'day() of a Sunday is 7' },
  { expression: 'day(parseDate("2024-06-17"))', expected: 1, name: 'day() of a Monday is 1' },
  { expression: 'date(now())', expected: 15 },
  { expression: 'week(now())', expected: 24 },
  { expression: 'week(parseDate("2021-01-01"))', expected: 53, name: 'ISO week of Jan 1 2021 is 53' },
  { expression: 'month(now())', expected: 6 },
  { expression: 'year(now())', expected: 2024 },
  { expression: 'hour(parseDate("2024-01-15T10:30:00+02:00"))', expected: 10, name: 'hour() reads the wall clock of the offset' },
  { expression: 'dateAdd(parseDate("2024-01-31"), 1, "months")', expected: dateValue('2024-02-29'), name: 'Jan 31 + 1 month in a leap year' },
  { expression: 'dateAdd(parseDate("2023-01-31"), 1, "months")', expected: dateValue('2023-02-28') },
  { expression: 'dateAdd(parseDate("2024-02-29"), 1, "years")', expected: dateValue('2025-02-28') },
  { expression: 'dateAdd(parseDate("2024-02-29"), 4, "years")', expected: dateValue('2028-02-29') },
  { expression: 'dateAdd(parseDate("2024-12-31"), 1, "days")', expected: dateValue('2025-01-01') },
  { expression: 'dateAdd(parseDate("2024-02-28"), 1, "day")', expected: dateValue('2024-02-29'), name: 'singular unit' },
  { expression: 'dateAdd(parseDate("2024-01-15"), 2, "quarters")', expected: dateValue('2024-07-15') },
  { expression: 'dateAdd(parseDate("2024-01-01"), 2, "weeks")', expected: dateValue('2024-01-15') },
  { expression: 'dateAdd(now(), 90, "minutes")', expected: dateValue('2024-06-15T14:04:56.000Z') },
  { expression: 'dateAdd(now(), -1, "hours")', expected: dateValue('2024-06-15T11:34:56.000Z') },
  {
    expression: 'dateAdd(parseDate("2024-01-01"), 1, "hour")',
    expected: dateValue('2024-01-01T01:00:00.000Z'),
    name: 'adding hours to a date gives a date-time',
  },
  { expression: 'dateAdd(prop("Range"), 1, "weeks")', expected: dateValue('2024-01-08', '2024-01-12'), name: 'dateAdd moves a whole range' },
  { expression: 'dateAdd(parseDate("2024-01-31T23:00:00+02:00"), 1, "months")', expected: dateValue('2024-02-29T23:00:00.000+02:00') },
  { expression: 'dateSubtract(parseDate("2024-03-31"), 1, "months")', expected: dateValue('2024-02-29') },
  { expression: 'dateSubtract(parseDate("2024-03-01"), 1, "days")', expected: dateValue('2024-02-29') },
  { expression: 'dateSubtract(parseDate("2023-03-01"), 1, "days")', expected: dateValue('2023-02-28') },
  { expression: 'dateBetween(parseDate("2024-03-01"), parseDate("2024-02-01"), "days")', expected: 29, type: N },
  { expression: 'dateBetween(parseDate("2023-03-01"), parseDate("2023-02-01"), "days")', expected: 28 },
  { expression: 'dateBetween(parseDate("2024-02-01"), parseDate("2024-03-01"), "days")', expected: -29 },
  { expression: 'dateBetween(parseDate("2024-12-31"), parseDate("2024-01-01"), "days")', expected: 365 },
  { expression: 'dateBetween(parseDate("2024-02-29"), parseDate("2024-01-31"), "months")', expected: 1, name: 'month-end to month-end is one month' },
  { expression: 'dateBetween(parseDate("2024-02-28"), parseDate("2024-01-31"), "months")', expected: 0 },
  { expression: 'dateBetween(parseDate("2025-02-28"), parseDate("2024-02-29"), "years")', expected: 1 },
  { expression: 'dateBetween(parseDate("2024-06-14"), parseDate("2023-06-15"), "years")', expected: 0 },
  { expression: 'dateBetween(parseDate("2024-07-01"), parseDate("2024-01-01"), "quarters")', expected: 2 },
  { expression: 'dateBetween(parseDate("2024-06-15"), parseDate("2024-06-01"), "weeks")', expected: 2 },
  { expression: 'dateBetween(now(), parseDate("2024-06-15"), "hours")', expected: 12 },
  { expression: 'now().dateBetween(parseDate("2024-06-15"), "minutes")', expected: 754 },
  { expression: 'dateRange(parseDate("2024-01-01"), parseDate("2024-01-10"))', expected: dateValue('2024-01-01', '2024-01-10') },
  {
    expression: 'dateRange(parseDate("2024-01-10"), parseDate("2024-01-01"))',
    expected: dateValue('2024-01-01', '2024-01-10'),
    name: 'dateRange orders its ends',
  },
  { expression: 'dateStart(prop("Range"))', expected: dateValue('2024-01-01') },
  { expression: 'dateEnd(prop("Range"))', expected: dateValue('2024-01-05') },
  { expression: 'dateEnd(prop("Due"))', expected: dateValue('2024-01-31') },
  { expression: 'timestamp(parseDate("2024-01-01"))', expected: 1704067200000 },
  { expression: 'timestamp(now())', expected: NOW.getTime() },
  { expression: 'fromTimestamp(0)', expected: dateValue('1970-01-01T00:00:00.000Z') },
  { expression: 'fromTimestamp(1704067200000) == parseDate("2024-01-01")', expected: true },
  { expression: 'parseDate("2024-02-29")', expected: dateValue('2024-02-29'), type: D },
  { expression: 'parseDate("2023-02-29")', expected: null, name: 'parseDate rejects Feb 29 in a common year' },
  { expression: 'parseDate("not a date")', expected: null },
  { expression: 'parseDate("2024-01-15T10:30:00+02:00")', expected: dateValue('2024-01-15T10:30:00.000+02:00') },
  { expression: 'parseDate("2023")', expected: dateValue('2023-01-01') },
  { expression: 'formatDate(now(), "YYYY-MM-DD")', expected: '2024-06-15', type: S },
  { expression: 'formatDate(now(), "YY")', expected: '24' },
  { expression: 'formatDate(now(), "MMMM MMM MM M")', expected: 'June Jun 06 6' },
  { expression: 'formatDate(parseDate("2024-01-05"), "DD D")', expected: '05 5' },
  { expression: 'formatDate(now(), "dddd ddd")', expected: 'Saturday Sat' },
  { expression: 'formatDate(now(), "HH:mm:ss")', expected: '12:34:56' },
  { expression: 'formatDate(prop("Meeting"), "H h hh A a")', expected: '14 2 02 PM pm' },
  { expression: 'formatDate(parseDate("2024-01-01T09:05"), "h:mm a")', expected: '9:05 am' },
  { expression: 'formatDate(parseDate("2024-01-01T00:15"), "h:mm A")', expected: '12:15 AM', name: 'midnight is 12 AM' },
  { expression: 'formatDate(parseDate("2024-01-01"), "Do")', expected: '1st' },
  { expression: 'formatDate(parseDate("2024-01-02"), "Do")', expected: '2nd' },
  { expression: 'formatDate(parseDate("2024-01-03"), "Do")', expected: '3rd' },
  { expression: 'formatDate(parseDate("2024-01-11"), "Do")', expected: '11th' },
  { expression: 'formatDate(parseDate("2024-01-22"), "Do")', expected: '22nd' },
  { expression: 'formatDate(prop("Due"), "dddd, MMMM Do YYYY")', expected: 'Wednesday, January 31st 2024' },
  { expression: 'formatDate(now(), "[Week] W")', expected: 'Week 24', name: 'bracketed text is literal' },
  { expression: 'prop("Meeting").formatDate("MMM D, h:mm a")', expected: 'Mar 10, 2:30 pm' },
];

export const peopleCases: FormulaCase[] = [
  { expression: 'name(prop("Owner"))', expected: 'Ada Lovelace', type: S },
  { expression: 'prop("Owner").email()', expected: 'ada@example.com' },
  { expression: 'email(at(prop("People"), 1))', expected: null },
  { expression: 'prop("People").map(current.name())', expected: ['Ada Lovelace', 'Alan Turing'], type: list(S) },
  { expression: 'name(prop("People"))', expected: ['Ada Lovelace', 'Alan Turing'], name: 'name() of a people list' },
  { expression: 'prop("People").first()', expected: ADA, type: { kind: 'person' }, api: { type: 'string', string: 'Ada Lovelace' } },
  { expression: 'prop("People")', expected: [ADA, ALAN], api: { type: 'string', string: 'Ada Lovelace,Alan Turing' } },
  { expression: 'id()', expected: PAGE_ID, type: S },
  { expression: 'id(prop("Owner"))', expected: 'user-ada' },
];

export const listCases: FormulaCase[] = [
  { expression: '[1, 2, 3]', expected: [1, 2, 3], type: list(N), api: { type: 'string', string: '1,2,3' } },
  { expression: '[]', expected: [], type: list({ kind: 'empty' }) },
  { expression: 'at([10, 20, 30], 1)', expected: 20, type: N },
  { expression: 'at([10, 20, 30], -1)', expected: 30 },
  { expression: 'at([1], 5)', expected: null },
  { expression: 'first(prop("Tags"))', expected: 'b' },
  { expression: 'last(prop("Tags"))', expected: 'a' },
  { expression: 'slice([1, 2, 3, 4], 1, 3)', expected: [2, 3] },
  { expression: 'slice([1, 2, 3, 4], 2)', expected: [3, 4] },
  { expression: 'concat([1, 2], [3], [])', expected: [1, 2, 3], type: list(N) },
  { expression: 'sort([3, 1, 2])', expected: [1, 2, 3] },
  { expression: 'sort(["b", "c", "a"])', expected: ['a', 'b', 'c'] },
  { expression: 'reverse([1, 2, 3])', expected: [3, 2, 1] },
  { expression: 'join(prop("Tags"), "-")', expected: 'b-a-c-a' },
  { expression: 'unique(prop("Tags"))', expected: ['b', 'a', 'c'] },
  { expression: 'includes(prop("Tags"), "c")', expected: true },
  { expression: '[1, 2].includes(3)', expected: false },
  { expression: 'find([1, 5, 10], current > 3)', expected: 5, type: N },
  { expression: 'find([1], current > 3)', expected: null },
  { expression: 'findIndex([1, 5, 10], current > 3)', expected: 1 },
  { expression: 'findIndex([1], current > 3)', expected: -1 },
  { expression: 'filter([1, 2, 3, 4], current % 2 == 0)', expected: [2, 4] },
  { expression: 'some([1, 2], current > 1)', expected: true },
  { expression: 'every([1, 2], current > 1)', expected: false },
  { expression: 'map([1, 2, 3], current * 10)', expected: [10, 20, 30] },
  { expression: 'map(["a", "b"], current + index)', expected: ['a0', 'b1'], name: 'index is 0-based' },
  { expression: 'flat([[1, 2], [3]])', expected: [1, 2, 3], type: list(N) },
  { expression: '[[1], [2, 3]].flat().length()', expected: 3 },
  {
    expression: 'map([1, 2], map([10, 20], current + index))',
    expected: [
      [10, 21],
      [10, 21],
    ],
    name: 'inner current shadows outer',
  },
  {
    expression: 'map([1, 2], let(outer, current, map([10, 20], current + outer)))',
    expected: [
      [11, 21],
      [12, 22],
    ],
    name: 'outer current via let',
  },
  { expression: '[1, 2, 3].filter(current > 1).map(current * 2).sum()', expected: 10 },
];

export const relationCases: FormulaCase[] = [
  { expression: 'prop("Tasks")', expected: TASK_PAGES, type: list({ kind: 'page' }), api: { type: 'string', string: 'Design,Build,Ship' } },
  { expression: 'prop("Tasks").length()', expected: 3 },
  { expression: 'prop("Tasks").map(current.prop("Points"))', expected: [3, 5, null], type: list(N) },
  { expression: 'prop("Tasks").map(current.prop("Points")).sum()', expected: 8 },
  { expression: 'prop("Tasks").filter(current.prop("Done")).length()', expected: 1 },
  { expression: 'prop("Tasks").filter(not current.prop("Done")).map(current.prop("Name")).join(", ")', expected: 'Build, Ship' },
  { expression: 'prop("Tasks").find(current.prop("Status") == "In progress").prop("Name")', expected: 'Build' },
  { expression: 'prop("Tasks").some(current.prop("Due") < now())', expected: true },
  { expression: 'prop("Tasks").every(current.prop("Points") > 0)', expected: false },
  {
    expression: 'sort(prop("Tasks"), -current.prop("Points")).map(current.prop("Name"))',
    expected: ['Build', 'Design', 'Ship'],
    name: 'sort by key, empty keys last',
  },
  { expression: 'format(prop("Tasks").first())', expected: 'Design' },
  { expression: 'prop("Tasks").first().prop("Points") + 1', expected: 4 },
  { expression: 'prop("Tasks").map(current.prop("Due")).filter(not empty(current)).map(formatDate(current, "MMM D"))', expected: ['Jun 1', 'Jun 20'] },
  { expression: 'let(done, prop("Tasks").filter(current.prop("Done")).length(), round(done / prop("Tasks").length() * 100))', expected: 33 },
  { expression: 'prop("Tasks").map(prop("Count"))', expected: [5, 5, 5], name: 'prop() inside a callback still reads the current page' },
  { expression: 'prop("Tasks").map(current.id())', expected: ['task-1', 'task-2', 'task-3'] },
  { expression: 'prop("Tasks").length()', props: { Tasks: [] }, expected: 0, name: 'empty relation' },
];

export const letCases: FormulaCase[] = [
  { expression: 'let(x, 5, x * x)', expected: 25 },
  { expression: 'let(x, 2, let(x, 3, x) + x)', expected: 5, name: 'inner let shadows outer' },
  { expression: 'lets(a, 1, b, a + 1, c, b * 10, a + b + c)', expected: 23 },
  { expression: 'lets(who, "Ada", greeting, "Hi " + who, greeting.upper())', expected: 'HI ADA' },
  { expression: 'let(pi, 3, pi)', expected: 3, name: 'constants can be shadowed' },
  { expression: 'let(xs, [1, 2, 3], xs.map(current * current).sum())', expected: 14 },
];

export const errorCases: FormulaCase[] = [
  err('1 + true', /^Expected number but got boolean in "\+"$/, 4),
  err('true + 1', /Expected number or string but got boolean in "\+"/, 0),
  err('prop("Done") * 2', /Expected number but got boolean in "\*"/, 0),
  err('prop("Foo")', /^Unknown property "Foo"$/, 5),
  err('foo(1)', /^Unknown function "foo"$/, 0),
  err('prop("Name").lenght()', /Unknown function "lenght"/, 13),
  err('lower("a", "b")', /"lower" expects 1 argument but got 2/, 0),
  err('substring("abc")', /"substring" expects 2 to 3 arguments but got 1/, 0),
  err('sum()', /"sum" expects at least 1 argument but got 0/, 0),
  err('if(1, 2, 3)', /Expected boolean but got number in "if"/, 3),
  err('if(true, 1, "a")', /Branches of "if" have incompatible types: number and string/, 12),
  err('true ? 1 : "a"', /incompatible types: number and string/, 11),
  err('if(1 > 2, prop("Done"), "")', /incompatible types: boolean and string/, 24),
  err('ifs(true, 1, "a")', /Values of "ifs" have incompatible types: number and string/, 13),
  err('1 == "1"', /Cannot compare number with string using "=="/, 5),
  err('"a" > 1', /Cannot compare string with number using ">"/, 6),
  err('[1, "a"]', /List items must have the same type, but got number and string/, 4),
  err('sum("a")', /Expected number or list of numbers but got string in "sum"/, 4),
  err('not 1', /Expected boolean but got number in "not"/, 4),
  err('1 and true', /Expected boolean but got number in "and"/, 0),
  err('dateAdd(now(), 1, "fortnights")', /Unknown date unit "fortnights"/, 18),
  err('formatDate("2024-01-01", "YYYY")', /Expected date but got string in "formatDate"/, 11),
  err('name(prop("Text"))', /Expected person or list of people but got string in "name"/, 5),
  err('test("a", "(")', /Invalid regular expression "\("/, 10),
  err('test("aaaa", "(a+)+$")', /too complex/, 13),
  err('current + 1', /"current" can only be used inside list functions/, 0),
  err('index', /"index" can only be used inside list functions/, 0),
  err('map(5, current)', /Expected list but got number in "map"/, 4),
  err('"abc".map(current)', /Expected list but got string in "map"/, 0),
  err('filter([1], current + 1)', /Expected boolean but got number in "filter"/, 12),
  err('sort(prop("People"))', /"sort" can only order numbers, strings, booleans or dates, not person/, 5),
  err('concat([1], ["a"])', /Cannot combine list of number with list of string in "concat"/, 12),
  err('[1].includes("a")', /Cannot look for string in list of number/, 13),
  err('let(1, 2, 3)', /Expected a variable name in "let"/, 4),
  err('let(x, 1)', /"let" expects 3 arguments/, 0),
  err('lets(a, 1, b)', /^Unknown name "b"$/, 11),
  err('lets(a, 1, b, 2)', /name\/value pairs/, 0),
  err('let(current, 1, current)', /"current" cannot be used as a variable name/, 4),
  err('Count + 1', /Unknown name "Count"; use prop\("Count"\)/, 0),
  err('abs', /"abs" is a function; call it as abs\(\)/, 0),
  err('prop(1)', /property name as a string literal/, 5),
  err('now().prop("x")', /Expected page but got date in "prop"/, 0),
  err('prop("Tasks").map(current.prop("Bogus"))', /Unknown property "Bogus" on pages related through "Tasks"/, 31),
  err('1 +', /Unexpected end of formula; expected a value/, 3),
  err('(1 + 2', /Expected "\)" to close "\("/, 6),
  err('1 2', /Unexpected number 2/, 2),
  err('"abc', /Unterminated string/, 0),
  err('1 = 1', /use "==" to compare/, 2),
  err('1 @ 2', /Unexpected character "@"/, 2),
  err("'abc'", /double quotes/, 0),
  err('', /Formula is empty/, 0),
  err('   ', /Formula is empty/, 0),
  err('1.abs', /Expected "\(" after "abs"/, 5),
  err('f(1,)', /Unexpected "\)"; expected a value/, 4),
  err('[1, 2', /Expected "\]" to close the list/, 5),
  err('/* open', /Unterminated comment/, 0),
];

// Keep the position helper honest: the error positions above were written by
// hand, these derive a few from the expression text as a cross-check.
const derived: FormulaCase[] = [
  (() => {
    const expression = 'if(prop("Done"), prop("Count"), prop("Name"))';
    return err(expression, /incompatible types: number and string/, at(expression, 'prop("Name")'));
  })(),
  (() => {
    const expression = 'prop("Count") + prop("Done")';
    return err(expression, /Expected number but got boolean in "\+"/, at(expression, 'prop("Done")'));
  })(),
];

export const formulaCases: FormulaCase[] = [
  ...operatorCases,
  ...logicCases,
  ...textCases,
  ...mathCases,
  ...dateCases,
  ...peopleCases,
  ...listCases,
  ...relationCases,
  ...letCases,
  ...errorCases,
  ...derived,
];

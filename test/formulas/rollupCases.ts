/**
 * Table of rollup cases: each input is the rolled-up property's value on one
 * related page, in Notion API property-value form.
 */
import type { RollupFunction, RollupInput, RollupResult } from '../../src/domain/rollups/index.js';

export interface RollupCase {
  name: string;
  fn: RollupFunction;
  inputs: RollupInput[];
  expected: RollupResult;
}

const richText = (content: string): unknown[] => (content === '' ? [] : [{ type: 'text', text: { content, link: null }, plain_text: content, href: null }]);

export const num = (number: number | null): RollupInput => ({ type: 'number', number });
export const checkbox = (value: boolean): RollupInput => ({ type: 'checkbox', checkbox: value });
export const title = (content: string): RollupInput => ({ type: 'title', title: richText(content) });
export const text = (content: string): RollupInput => ({ type: 'rich_text', rich_text: richText(content) });
export const date = (start: string | null, end: string | null = null): RollupInput => ({
  type: 'date',
  date: start === null ? null : { start, end, time_zone: null },
});
export const select = (name: string | null): RollupInput => ({
  type: 'select',
  select: name === null ? null : { id: `opt-${name}`, name, color: 'default' },
});
export const status = (name: string): RollupInput => ({ type: 'status', status: { id: `st-${name}`, name, color: 'default' } });
export const multi = (...names: string[]): RollupInput => ({
  type: 'multi_select',
  multi_select: names.map((name) => ({ id: `opt-${name}`, name, color: 'default' })),
});
export const people = (...ids: string[]): RollupInput => ({
  type: 'people',
  people: ids.map((id) => ({ object: 'user', id, name: `User ${id}` })),
});
export const relation = (...ids: string[]): RollupInput => ({ type: 'relation', relation: ids.map((id) => ({ id })), has_more: false });
export const url = (value: string | null): RollupInput => ({ type: 'url', url: value });
export const formulaNumber = (number: number | null): RollupInput => ({ type: 'formula', formula: { type: 'number', number } });
export const formulaString = (string: string | null): RollupInput => ({ type: 'formula', formula: { type: 'string', string } });
export const formulaBoolean = (boolean: boolean): RollupInput => ({ type: 'formula', formula: { type: 'boolean', boolean } });
export const createdTime = (iso: string): RollupInput => ({ type: 'created_time', created_time: iso });

const number = (fn: RollupFunction, value: number | null): RollupResult => ({ type: 'number', number: value, function: fn });
const dateResult = (fn: RollupFunction, start: string | null, end: string | null = null): RollupResult => ({
  type: 'date',
  date: start === null ? null : { start, end, time_zone: null },
  function: fn,
});
const array = (fn: RollupFunction, items: RollupInput[]): RollupResult => ({ type: 'array', array: items, function: fn });
const group = (count: number, name: string | null): RollupInput => ({ type: 'number', number: count, group: name });

const mixedNumbers = [num(1), num(2), num(null), num(3.5)];
const someDates = [date('2024-03-01'), date('2024-01-15'), date(null), date('2024-02-01', '2024-04-01')];
const boxes = [checkbox(true), checkbox(false), checkbox(true)];
const selects = [select('A'), select('B'), select('A'), select(null)];

export const rollupCases: RollupCase[] = [
  // count: every related page, empty or not
  { name: 'count counts pages', fn: 'count', inputs: [num(1), num(null), num(3)], expected: number('count', 3) },
  { name: 'count of no pages', fn: 'count', inputs: [], expected: number('count', 0) },
  // count_values: non-empty values, each element of multi-valued properties
  { name: 'count_values skips empty numbers', fn: 'count_values', inputs: [num(1), num(null), num(3)], expected: number('count_values', 2) },
  {
    name: 'count_values counts each multi-select option',
    fn: 'count_values',
    inputs: [multi('a', 'b'), multi(), multi('c')],
    expected: number('count_values', 3),
  },
  { name: 'count_values counts each person', fn: 'count_values', inputs: [people('u1'), people('u1', 'u2')], expected: number('count_values', 3) },
  { name: 'count_values counts unchecked boxes', fn: 'count_values', inputs: [checkbox(false), checkbox(true)], expected: number('count_values', 2) },
  { name: 'count_values counts relation targets', fn: 'count_values', inputs: [relation('p1', 'p2'), relation()], expected: number('count_values', 2) },
  // empty / not_empty
  { name: 'empty text, rich text and select', fn: 'empty', inputs: [title('x'), title(''), text(''), select(null)], expected: number('empty', 3) },
  { name: 'not_empty text', fn: 'not_empty', inputs: [title('x'), title(''), text(''), select(null)], expected: number('not_empty', 1) },
  { name: 'unchecked checkbox is not empty', fn: 'empty', inputs: [checkbox(false), checkbox(false)], expected: number('empty', 0) },
  { name: 'zero is not empty', fn: 'not_empty', inputs: [num(0), num(null)], expected: number('not_empty', 1) },
  { name: 'empty url', fn: 'empty', inputs: [url(null), url('https://example.com'), url('')], expected: number('empty', 2) },
  { name: 'empty formula string', fn: 'empty', inputs: [formulaString(null), formulaString(''), formulaString('x')], expected: number('empty', 2) },
  // unique
  { name: 'unique selects ignore empty', fn: 'unique', inputs: selects, expected: number('unique', 2) },
  { name: 'unique multi-select options', fn: 'unique', inputs: [multi('a', 'b'), multi('b', 'c')], expected: number('unique', 3) },
  { name: 'unique numbers', fn: 'unique', inputs: [num(1), num(1.0), num(2)], expected: number('unique', 2) },
  { name: 'unique statuses', fn: 'unique', inputs: [status('Done'), status('Done'), status('Todo')], expected: number('unique', 2) },
  // show_unique / show_original
  { name: 'show_unique selects', fn: 'show_unique', inputs: selects, expected: array('show_unique', [select('A'), select('B')]) },
  {
    name: 'show_unique splits multi-select',
    fn: 'show_unique',
    inputs: [multi('a', 'b'), multi('b', 'c')],
    expected: array('show_unique', [multi('a'), multi('b'), multi('c')]),
  },
  {
    name: 'show_unique texts',
    fn: 'show_unique',
    inputs: [title('x'), title('y'), title('x'), title('')],
    expected: array('show_unique', [title('x'), title('y')]),
  },
  {
    name: 'show_original keeps everything',
    fn: 'show_original',
    inputs: [num(2), num(null), num(2)],
    expected: array('show_original', [num(2), num(null), num(2)]),
  },
  { name: 'show_original of no pages', fn: 'show_original', inputs: [], expected: array('show_original', []) },
  // percent_empty / percent_not_empty (fractions)
  { name: 'percent_empty', fn: 'percent_empty', inputs: [num(1), num(null), num(null), num(4)], expected: number('percent_empty', 0.5) },
  { name: 'percent_empty of no pages', fn: 'percent_empty', inputs: [], expected: number('percent_empty', 0) },
  { name: 'percent_not_empty', fn: 'percent_not_empty', inputs: [title('a'), title(''), title('b'), title('c')], expected: number('percent_not_empty', 0.75) },
  // numeric
  { name: 'sum skips empty', fn: 'sum', inputs: mixedNumbers, expected: number('sum', 6.5) },
  { name: 'sum of nothing is empty', fn: 'sum', inputs: [num(null)], expected: number('sum', null) },
  { name: 'sum of formula numbers', fn: 'sum', inputs: [formulaNumber(2), formulaNumber(3), formulaString('7')], expected: number('sum', 5) },
  {
    name: 'sum of nested rollups',
    fn: 'sum',
    inputs: [
      { type: 'rollup', rollup: { type: 'number', number: 4, function: 'sum' } },
      { type: 'rollup', rollup: { type: 'array', array: [num(1), num(2)], function: 'show_original' } },
    ],
    expected: number('sum', 7),
  },
  { name: 'average', fn: 'average', inputs: [num(1), num(2), num(3), num(null)], expected: number('average', 2) },
  { name: 'average of nothing', fn: 'average', inputs: [], expected: number('average', null) },
  { name: 'median odd', fn: 'median', inputs: [num(5), num(1), num(3)], expected: number('median', 3) },
  { name: 'median even', fn: 'median', inputs: [num(4), num(1), num(3), num(2)], expected: number('median', 2.5) },
  { name: 'min', fn: 'min', inputs: [num(3), num(-1), num(null), num(2)], expected: number('min', -1) },
  { name: 'max', fn: 'max', inputs: [num(3), num(-1), num(2)], expected: number('max', 3) },
  { name: 'max of nothing', fn: 'max', inputs: [num(null)], expected: number('max', null) },
  { name: 'range', fn: 'range', inputs: [num(3), num(-1), num(2)], expected: number('range', 4) },
  { name: 'range of one', fn: 'range', inputs: [num(5)], expected: number('range', 0) },
  // dates
  { name: 'earliest_date', fn: 'earliest_date', inputs: someDates, expected: dateResult('earliest_date', '2024-01-15') },
  {
    name: 'earliest_date compares instants',
    fn: 'earliest_date',
    inputs: [date('2024-01-15T10:00:00.000Z'), date('2024-01-15'), date('2024-01-14T23:00:00.000-02:00')],
    expected: dateResult('earliest_date', '2024-01-15'),
  },
  { name: 'latest_date uses range ends', fn: 'latest_date', inputs: someDates, expected: dateResult('latest_date', '2024-04-01') },
  { name: 'latest_date of no dates', fn: 'latest_date', inputs: [date(null)], expected: dateResult('latest_date', null) },
  { name: 'date_range', fn: 'date_range', inputs: someDates, expected: dateResult('date_range', '2024-01-15', '2024-04-01') },
  {
    name: 'date_range of created times',
    fn: 'date_range',
    inputs: [createdTime('2024-05-02T08:00:00.000Z'), createdTime('2024-05-01T09:30:00.000Z')],
    expected: dateResult('date_range', '2024-05-01T09:30:00.000Z', '2024-05-02T08:00:00.000Z'),
  },
  { name: 'date_range of no dates', fn: 'date_range', inputs: [], expected: dateResult('date_range', null) },
  // checkboxes
  { name: 'checked', fn: 'checked', inputs: boxes, expected: number('checked', 2) },
  { name: 'unchecked', fn: 'unchecked', inputs: boxes, expected: number('unchecked', 1) },
  { name: 'percent_checked', fn: 'percent_checked', inputs: boxes, expected: number('percent_checked', 2 / 3) },
  {
    name: 'percent_unchecked',
    fn: 'percent_unchecked',
    inputs: [checkbox(true), checkbox(false), checkbox(false), checkbox(false)],
    expected: number('percent_unchecked', 0.75),
  },
  { name: 'percent_checked of no pages', fn: 'percent_checked', inputs: [], expected: number('percent_checked', 0) },
  { name: 'checked formula booleans', fn: 'checked', inputs: [formulaBoolean(true), formulaBoolean(false)], expected: number('checked', 1) },
  // groups
  {
    name: 'count_per_group selects, empty last',
    fn: 'count_per_group',
    inputs: selects,
    expected: array('count_per_group', [group(2, 'A'), group(1, 'B'), group(1, null)]),
  },
  {
    name: 'count_per_group multi-select counts a page in each group',
    fn: 'count_per_group',
    inputs: [multi('a', 'b'), multi('b')],
    expected: array('count_per_group', [group(1, 'a'), group(2, 'b')]),
  },
  {
    name: 'count_per_group checkboxes',
    fn: 'count_per_group',
    inputs: boxes,
    expected: array('count_per_group', [group(2, 'true'), group(1, 'false')]),
  },
  {
    name: 'percent_per_group selects',
    fn: 'percent_per_group',
    inputs: selects,
    expected: array('percent_per_group', [group(0.5, 'A'), group(0.25, 'B'), group(0.25, null)]),
  },
  { name: 'percent_per_group of no pages', fn: 'percent_per_group', inputs: [], expected: array('percent_per_group', []) },
];

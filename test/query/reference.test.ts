/**
 * The oracle itself, checked against answers worked out by hand from docs/decisions.md
 * "Queries (issue 12)", so a disagreement in differential.test.ts points at the server and not
 * at a misreading here. No server: pages and schemas are written as the API shows them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { matches, type DataSourceObject, type PageObject, type QueryFilter, type World } from './reference.js';

type Json = Record<string, any>;

const SOURCE = 'ds-main';
const TARGETS = 'ds-targets';
const option = (id: string, name: string) => ({ id, name, color: 'default' });
const text = (...parts: string[]) => parts.map((p) => ({ type: 'text', text: { content: p, link: null }, plain_text: p, href: null }));

const schema: DataSourceObject = {
  id: SOURCE,
  properties: {
    Name: { id: 'title', name: 'Name', type: 'title', title: {} },
    Num: { id: 'n1', name: 'Num', type: 'number', number: {} },
    When: { id: 'd1', name: 'When', type: 'date', date: {} },
    Who: { id: 'p1', name: 'Who', type: 'people', people: {} },
    Stage: {
      id: 's1',
      name: 'Stage',
      type: 'status',
      status: {
        options: [option('o1', 'Not started'), option('o2', 'In progress'), option('o3', 'Review'), option('o4', 'Done'), option('o5', 'Shipped')],
        groups: [
          { id: 'g1', name: 'To-do', option_ids: ['o1'] },
          { id: 'g2', name: 'In progress', option_ids: ['o2', 'o3'] },
          { id: 'g3', name: 'Complete', option_ids: ['o4', 'o5'] },
        ],
      },
    },
    Links: { id: 'r1', name: 'Links', type: 'relation', relation: { data_source_id: TARGETS } },
    Nums: {
      id: 'u1',
      name: 'Nums',
      type: 'rollup',
      rollup: { function: 'show_original', relation_property_id: 'r1', relation_property_name: 'Links', rollup_property_id: 'tn', rollup_property_name: 'N' },
    },
    Check: { id: 'f1', name: 'Check', type: 'formula', formula: { expression: 'prop("Num") > 1' } },
    Verified: { id: 'v1', name: 'Verified', type: 'verification', verification: {} },
  },
};
const targets: DataSourceObject = { id: TARGETS, properties: { N: { id: 'tn', name: 'N', type: 'number', number: {} } } };

function page(id: string, properties: Json, inTrash = false, source = SOURCE): PageObject {
  const values: Json = {};
  const own = source === SOURCE ? schema : targets;
  for (const [name, value] of Object.entries(properties)) values[name] = { id: own.properties[name].id, type: own.properties[name].type, ...value };
  return {
    id,
    created_time: '2024-03-30T10:00:00.000Z',
    last_edited_time: '2024-03-31T10:00:00.000Z',
    created_by: { id: 'bot' },
    last_edited_by: { id: 'bot' },
    in_trash: inTrash,
    parent: { type: 'data_source_id', data_source_id: source },
    properties: values,
  };
}

const t1 = page('t1', { N: { number: 5 } }, false, TARGETS);
const t2 = page('t2', { N: { number: 50 } }, true, TARGETS);
const t3 = page('t3', { N: { number: null } }, false, TARGETS);
// Sunday 31 March 2024, a leap year: one month back is 29 February.
const NOW = new Date('2024-03-31T12:00:00.000Z');
const world = (me: string | null = 'ada'): World => ({
  dataSources: new Map([
    [SOURCE, schema],
    [TARGETS, targets],
  ]),
  pages: new Map([t1, t2, t3].map((p) => [p.id, p])),
  me,
  now: NOW,
});

const is = (filter: Json, p: PageObject, expected: boolean, w = world()) =>
  assert.equal(matches(filter as QueryFilter, p, w), expected, `${JSON.stringify(filter)} on ${JSON.stringify(p.properties)}`);

describe('the reference evaluator', () => {
  test('text: NFC then toLowerCase on both sides; empty text is ""', () => {
    const decomposed = page('a', { Name: { title: text('e\u0301cl', 'air') } });
    is({ property: 'Name', title: { equals: 'ÉCLAIR' } }, decomposed, true);
    is({ property: 'title', rich_text: { contains: 'CLAI' } }, decomposed, true);
    const strasse = page('b', { Name: { title: text('straße') } });
    is({ property: 'Name', title: { equals: 'STRASSE' } }, strasse, false);
    const istanbul = page('c', { Name: { title: text('İstanbul') } });
    is({ property: 'Name', title: { contains: 'istanbul' } }, istanbul, false);
    is({ property: 'Name', title: { starts_with: 'i\u0307s' } }, istanbul, true);
    const empty = page('d', { Name: { title: [] } });
    is({ property: 'Name', title: { equals: '' } }, empty, true);
    is({ property: 'Name', title: { contains: '' } }, empty, true);
    is({ property: 'Name', title: { starts_with: '' } }, empty, true);
    is({ property: 'Name', title: { does_not_contain: '' } }, empty, false);
    is({ property: 'Name', title: { does_not_equal: 'x' } }, empty, true);
    is({ property: 'Name', title: { is_empty: true } }, empty, true);
  });

  test('numbers: negative conditions match empty values, ordering conditions never do', () => {
    const empty = page('a', { Num: { number: null } });
    is({ property: 'Num', number: { does_not_equal: 1 } }, empty, true);
    is({ property: 'Num', number: { greater_than: -100 } }, empty, false);
    is({ property: 'n1', number: { less_than_or_equal_to: 2 } }, page('b', { Num: { number: 2 } }), true);
  });

  test('dates: a range meets an instant or a whole UTC day', () => {
    const day = page('a', { When: { date: { start: '2024-03-31', end: null } } });
    is({ property: 'When', date: { equals: 'today' } }, day, true);
    is({ property: 'When', date: { after: 'yesterday' } }, day, true);
    is({ property: 'When', date: { before: 'today' } }, day, false);
    is({ property: 'When', date: { on_or_before: 'today' } }, day, true);
    const range = page('b', { When: { date: { start: '2024-03-01', end: '2024-03-05' } } });
    is({ property: 'When', date: { equals: '2024-03-05' } }, range, true);
    is({ property: 'When', date: { after: '2024-03-04' } }, range, true);
    is({ property: 'When', date: { after: '2024-03-05' } }, range, false);
    is({ property: 'When', date: { before: '2024-03-02' } }, range, true);
    is({ property: 'When', date: { equals: '2024-03-05T00:00:00Z' } }, range, true);
    is({ property: 'When', date: { equals: '2024-03-05T00:00:00' } }, range, true);
    is({ property: 'When', date: { equals: '2024-03-05T00:00:00.001Z' } }, range, false);
    is({ property: 'When', date: { on_or_after: '2024-03-05T00:00:00.001+00:00' } }, range, false);
    const offset = page('c', { When: { date: { start: '2024-03-01T20:00:00.000-08:00', end: null } } });
    is({ property: 'When', date: { equals: '2024-03-02' } }, offset, true);
    is({ property: 'When', date: { equals: '2024-03-01' } }, offset, false);
    is({ property: 'When', date: { is_empty: true } }, page('d', { When: { date: null } }), true);
    is({ property: 'When', date: { before: '2030-01-01' } }, page('d', { When: { date: null } }), false);
  });

  test('relative dates and windows: UTC days, calendar months clamped, ISO weeks from Monday', () => {
    const on = (start: string) => page(start, { When: { date: { start, end: null } } });
    is({ property: 'When', date: { equals: 'one_month_ago' } }, on('2024-02-29'), true);
    is({ property: 'When', date: { equals: 'one_month_from_now' } }, on('2024-04-30'), true);
    is({ property: 'When', date: { past_month: {} } }, on('2024-02-28'), false);
    is({ property: 'When', date: { past_month: {} } }, on('2024-02-29'), true);
    is({ property: 'When', date: { past_week: {} } }, on('2024-03-24'), true);
    is({ property: 'When', date: { past_week: {} } }, on('2024-03-23T23:59:59.999Z'), false);
    is({ property: 'When', date: { this_week: {} } }, on('2024-03-25'), true);
    is({ property: 'When', date: { this_week: {} } }, on('2024-03-24T23:59:59.999Z'), false);
    is({ property: 'When', date: { next_week: {} } }, on('2024-04-07T23:00:00Z'), true);
    is({ property: 'When', date: { next_week: {} } }, on('2024-04-08'), false);
    is({ property: 'When', date: { next_year: {} } }, on('2025-03-31'), true);
    is({ property: 'When', date: { next_year: {} } }, on('2025-04-01'), false);
    is({ property: 'When', date: { past_year: {} } }, on('2023-03-31'), true);
    is({ property: 'When', date: { past_year: {} } }, on('2023-03-30'), false);
    const year = page('y', { When: { date: { start: '2024-01-01', end: '2024-12-31' } } });
    is({ property: 'When', date: { past_week: {} } }, year, true);
    is({ timestamp: 'created_time', created_time: { equals: 'yesterday' } }, year, true);
    is({ timestamp: 'last_edited_time', last_edited_time: { before: 'today' } }, year, false);
  });

  test('status: a group name in equals means its options, unless an option has that name', () => {
    const at = (name: string) => page(name, { Stage: { status: { name } } });
    is({ property: 'Stage', status: { equals: 'Complete' } }, at('Shipped'), true);
    is({ property: 'Stage', status: { equals: 'In progress' } }, at('Review'), false);
    is({ property: 'Stage', status: { equals: ['To-do', 'Done'] } }, at('Not started'), true);
    is({ property: 'Stage', status: { does_not_equal: 'Complete' } }, at('Done'), true);
    is({ property: 'Stage', status: { equals: 'done' } }, at('Done'), false);
    is({ property: 'Stage', status: { does_not_equal: ['Done', 'Review'] } }, page('e', { Stage: { status: null } }), true);
  });

  test('people: me is the connection’s user, and nobody for an internal connection', () => {
    const p = page('a', { Who: { people: [{ id: 'ada' }] } });
    is({ property: 'Who', people: { contains: 'me' } }, p, true);
    is({ property: 'Who', people: { contains: 'me' } }, p, false, world(null));
    is({ property: 'Who', people: { does_not_contain: 'me' } }, p, true, world(null));
    is({ property: 'Who', people: { contains: 'me' } }, page('b', { Who: { people: [] } }), false);
  });

  test('relations and rollups skip related pages in the trash; every over nothing holds', () => {
    const onlyTrashed = page('a', { Links: { relation: [{ id: 't2' }] } });
    is({ property: 'Links', relation: { is_empty: true } }, onlyTrashed, true);
    is({ property: 'Links', relation: { contains: 't2' } }, onlyTrashed, false);
    is({ property: 'Nums', rollup: { every: { number: { greater_than: 100 } } } }, onlyTrashed, true);
    is({ property: 'Nums', rollup: { any: { number: { greater_than: 10 } } } }, onlyTrashed, false);
    is({ property: 'Nums', rollup: { none: { number: { is_empty: true } } } }, onlyTrashed, true);
    const mixed = page('b', { Links: { relation: [{ id: 't1' }, { id: 't2' }, { id: 't3' }] } });
    is({ property: 'Nums', rollup: { any: { number: { is_empty: true } } } }, mixed, true);
    is({ property: 'Nums', rollup: { every: { number: { less_than: 10 } } } }, mixed, false);
    is({ property: 'u1', rollup: { every: { number: { does_not_equal: 50 } } } }, mixed, true);
  });

  test('formulas by result type; verification by state and end date', () => {
    const empty = page('a', { Check: { formula: { type: 'boolean', boolean: null } } });
    is({ property: 'Check', formula: { checkbox: { does_not_equal: true } } }, empty, true);
    is({ property: 'Check', formula: { checkbox: { equals: false } } }, empty, false);
    const v = (verification: Json) => page('v', { Verified: { verification } });
    is({ property: 'Verified', verification: { status: 'verified' } }, v({ state: 'verified', date: { start: '2024-01-01', end: null } }), true);
    is({ property: 'Verified', verification: { status: 'expired' } }, v({ state: 'verified', date: { start: '2024-01-01', end: '2024-03-30' } }), true);
    is({ property: 'Verified', verification: { status: 'verified' } }, v({ state: 'verified', date: { start: '2024-01-01', end: '2024-04-01' } }), true);
    is({ property: 'Verified', verification: { does_not_equal: 'none' } }, v({ state: 'unverified', date: null }), false);
  });

  test('and / or', () => {
    const p = page('a', { Num: { number: 3 }, Name: { title: text('x') } });
    const three = { property: 'Num', number: { equals: 3 } };
    const notX = { property: 'Name', title: { does_not_equal: 'X' } };
    is({ and: [three, notX] }, p, false);
    is({ or: [three, notX] }, p, true);
    is({ or: [{ and: [three, notX] }, { and: [three] }] }, p, true);
  });
});

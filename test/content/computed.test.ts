import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('computed values and relations', () => {
  const { server, fx } = useServer();
  let root: Json;
  before(async () => {
    root = await makeSharedPage(server, fx);
  });

  const database = async (title: string, properties: Json) => {
    const db = await ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, title: text(title), initial_data_source: { properties } });
    return db.data_sources[0].id as string;
  };
  const page = (source: string, properties: Json) => ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source }, properties });
  const get = async (id: string) => (await ok(server, fx, 'GET', `/v1/pages/${id}`)).properties;
  const patch = (id: string, properties: Json) => ok(server, fx, 'PATCH', `/v1/pages/${id}`, { properties });
  const schema = async (source: string) => (await ok(server, fx, 'GET', `/v1/data_sources/${source}`)).properties;

  test('rollups and formulas follow changes of related pages, over several hops', async () => {
    const items = await database('Items', { Item: { title: {} }, Cost: { number: {} } });
    const orders = await database('Orders', {
      Order: { title: {} },
      Items: { relation: { data_source_id: items, single_property: {} } },
      Total: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Cost', function: 'sum' } },
      WithTax: { formula: { expression: 'prop("Total") * 1.5' } },
      Names: { formula: { expression: 'prop("Items").map(current.prop("Item")).sort().join(", ")' } },
    });
    const customers = await database('Customers', {
      Customer: { title: {} },
      Orders: { relation: { data_source_id: orders, single_property: {} } },
      Spent: { rollup: { relation_property_name: 'Orders', rollup_property_name: 'WithTax', function: 'sum' } },
      Latest: { rollup: { relation_property_name: 'Orders', rollup_property_name: 'Total', function: 'max' } },
    });
    const a = await page(items, { Item: { title: text('apple') }, Cost: { number: 2 } });
    const b = await page(items, { Item: { title: text('bread') }, Cost: { number: 4 } });
    const order = await page(orders, { Order: { title: text('o1') }, Items: { relation: [{ id: a.id }, { id: b.id }] } });
    assert.equal(order.properties.Total.rollup.number, 6);
    assert.equal(order.properties.WithTax.formula.number, 9);
    assert.equal(order.properties.Names.formula.string, 'apple, bread');
    const customer = await page(customers, { Customer: { title: text('c') }, Orders: { relation: [{ id: order.id }] } });
    assert.equal(customer.properties.Spent.rollup.number, 9);

    await patch(a.id, { Cost: { number: 10 }, Item: { title: text('avocado') } });
    const o = await get(order.id);
    assert.equal(o.Total.rollup.number, 14);
    assert.equal(o.WithTax.formula.number, 21);
    assert.equal(o.Names.formula.string, 'avocado, bread');
    const c = await get(customer.id);
    assert.equal(c.Spent.rollup.number, 21);
    assert.equal(c.Latest.rollup.number, 14);

    await patch(order.id, { Items: { relation: [{ id: b.id }] } });
    assert.equal((await get(customer.id)).Spent.rollup.number, 6);
  });

  test('a dual relation keeps both sides in step', async () => {
    const people = await database('People', { Person: { title: {} } });
    const teams = await database('Teams', {
      Team: { title: {} },
      Members: { relation: { data_source_id: people, dual_property: { synced_property_name: 'Teams' } } },
    });
    const ann = await page(people, { Person: { title: text('Ann') } });
    const bob = await page(people, { Person: { title: text('Bob') } });
    const red = await page(teams, { Team: { title: text('Red') }, Members: { relation: [{ id: ann.id }, { id: bob.id }] } });
    assert.deepEqual((await get(ann.id)).Teams.relation, [{ id: red.id }]);
    const blue = await page(teams, { Team: { title: text('Blue') } });
    // From the other side.
    await patch(bob.id, { Teams: { relation: [{ id: blue.id }] } });
    assert.deepEqual((await get(red.id)).Members.relation, [{ id: ann.id }]);
    assert.deepEqual((await get(blue.id)).Members.relation, [{ id: bob.id }]);
    // Renaming one side renames the synced name on the other.
    await ok(server, fx, 'PATCH', `/v1/data_sources/${people}`, { properties: { Teams: { name: 'Squads' } } });
    assert.equal((await schema(teams)).Members.relation.dual_property.synced_property_name, 'Squads');
    // Deleting one side deletes the other.
    await ok(server, fx, 'PATCH', `/v1/data_sources/${teams}`, { properties: { Members: null } });
    assert.equal((await schema(people)).Squads, undefined);
    assert.equal((await get(ann.id)).Squads, undefined);
  });

  test('a single relation that becomes dual mirrors its values', async () => {
    const left = await database('Left', { L: { title: {} } });
    const right = await database('Right', { R: { title: {} }, Link: { relation: { data_source_id: left, single_property: {} } } });
    const l1 = await page(left, { L: { title: text('l1') } });
    const r1 = await page(right, { R: { title: text('r1') }, Link: { relation: [{ id: l1.id }] } });
    await ok(server, fx, 'PATCH', `/v1/data_sources/${right}`, {
      properties: { Link: { relation: { data_source_id: left, type: 'dual_property', dual_property: { synced_property_name: 'Back' } } } },
    });
    assert.deepEqual((await get(l1.id)).Back.relation, [{ id: r1.id }]);
  });

  test('unique ids are numbered in creation order, also when added later', async () => {
    const source = await database('Tickets', { T: { title: {} }, ID: { unique_id: { prefix: 'TK' } } });
    const first = await page(source, { T: { title: text('1') } });
    const second = await page(source, { T: { title: text('2') } });
    assert.deepEqual(first.properties.ID.unique_id, { prefix: 'TK', number: 1 });
    assert.deepEqual(second.properties.ID.unique_id, { prefix: 'TK', number: 2 });
    const later = await database('Later', { T: { title: {} } });
    const x = await page(later, { T: { title: text('x') } });
    const y = await page(later, { T: { title: text('y') } });
    await ok(server, fx, 'PATCH', `/v1/data_sources/${later}`, { properties: { Number: { unique_id: {} } } });
    assert.deepEqual((await get(x.id)).Number.unique_id, { prefix: null, number: 1 });
    assert.deepEqual((await get(y.id)).Number.unique_id, { prefix: null, number: 2 });
    assert.deepEqual((await page(later, {})).properties.Number.unique_id, { prefix: null, number: 3 });
  });

  test('concurrent writes to one data source lose neither unique ids nor created options', async () => {
    const source = await database('Busy', { T: { title: {} }, ID: { unique_id: {} }, Tag: { multi_select: {} } });
    const pages = await Promise.all(
      Array.from({ length: 12 }, (_, i) => page(source, { T: { title: text(`p${i}`) }, Tag: { multi_select: [{ name: `tag${i}` }] } })),
    );
    const numbers = pages.map((p) => p.properties.ID.unique_id.number).sort((a, b) => a - b);
    assert.deepEqual(
      numbers,
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    const options = (await schema(source)).Tag.multi_select.options.map((o: Json) => o.name);
    assert.equal(options.length, 12);
  });

  test('times and authors, and formulas reading them, are kept true', async () => {
    const source = await database('Log', {
      Entry: { title: {} },
      Created: { created_time: {} },
      Edited: { last_edited_time: {} },
      By: { created_by: {} },
      Year: { formula: { expression: 'year(prop("Created"))' } },
      Author: { formula: { expression: 'prop("By").name()' } },
      Stamp: { formula: { expression: 'formatDate(prop("Edited"), "YYYY")' } },
    });
    const entry = await page(source, { Entry: { title: text('e') } });
    const p = await get(entry.id);
    assert.equal(p.Created.created_time, entry.created_time);
    assert.equal(p.Edited.last_edited_time, entry.last_edited_time);
    assert.equal(p.Year.formula.number, new Date(entry.created_time).getUTCFullYear());
    assert.equal(p.Author.formula.string, 'Test integration');
    assert.equal(p.Stamp.formula.string, String(new Date().getUTCFullYear()));
  });

  test('formulas using formulas; options renamed in the schema follow into formulas', async () => {
    const source = await database('Chain', {
      N: { title: {} },
      A: { number: {} },
      B: { formula: { expression: 'prop("A") + 1' } },
      C: { formula: { expression: 'prop("B") * 10' } },
      S: { select: { options: [{ name: 'low' }] } },
      Label: { formula: { expression: 'prop("S") + "!"' } },
    });
    const row = await page(source, { A: { number: 1 }, S: { select: { name: 'low' } } });
    assert.equal(row.properties.C.formula.number, 20);
    assert.equal(row.properties.Label.formula.string, 'low!');
    const options = (await schema(source)).S.select.options;
    await ok(server, fx, 'PATCH', `/v1/data_sources/${source}`, { properties: { S: { select: { options: [{ id: options[0].id, name: 'high' }] } } } });
    const after = await get(row.id);
    assert.equal(after.S.select.name, 'high');
    assert.equal(after.Label.formula.string, 'high!');
    await patch(row.id, { A: { number: 5 } });
    assert.equal((await get(row.id)).C.formula.number, 60);
    // A formula referring to itself through another is refused with a position.
    const cyclic = await fetch(`${server.url}/v1/data_sources/${source}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json', 'Notion-Version': LATEST_VERSION },
      body: JSON.stringify({ properties: { B: { formula: { expression: 'prop("C") + 1' } } } }),
    });
    const body = (await cyclic.json()) as Json;
    assert.equal(cyclic.status, 400);
    assert.match(body.message, /body\.properties\.B\.formula\.expression/);
  });

  test('every rollup function answers in its result type', async () => {
    const values = await database('Values', {
      V: { title: {} },
      Num: { number: {} },
      When: { date: {} },
      Ok: { checkbox: {} },
      Tag: { select: {} },
    });
    const functions = [
      'count',
      'count_values',
      'empty',
      'not_empty',
      'unique',
      'show_unique',
      'percent_empty',
      'percent_not_empty',
      'sum',
      'average',
      'median',
      'min',
      'max',
      'range',
      'earliest_date',
      'latest_date',
      'date_range',
      'checked',
      'unchecked',
      'percent_checked',
      'percent_unchecked',
      'count_per_group',
      'percent_per_group',
      'show_original',
    ];
    const target = (fn: string) =>
      fn.includes('date') ? 'When' : fn.includes('checked') ? 'Ok' : fn.includes('group') || fn.startsWith('show') ? 'Tag' : 'Num';
    const properties: Json = { R: { title: {} }, Rel: { relation: { data_source_id: values, single_property: {} } } };
    for (const fn of functions) properties[`f_${fn}`] = { rollup: { relation_property_name: 'Rel', rollup_property_name: target(fn), function: fn } };
    const rollups = await database('Rollups', properties);
    const v1 = await page(values, { Num: { number: 1 }, When: { date: { start: '2024-01-01' } }, Ok: { checkbox: true }, Tag: { select: { name: 'a' } } });
    const v2 = await page(values, { Num: { number: 5 }, When: { date: { start: '2024-03-01' } }, Ok: { checkbox: false }, Tag: { select: { name: 'b' } } });
    const v3 = await page(values, { Num: { number: 3 }, Tag: { select: { name: 'a' } } });
    const r = (await page(rollups, { Rel: { relation: [{ id: v1.id }, { id: v2.id }, { id: v3.id }] } })).properties;
    const n = (fn: string) => r[`f_${fn}`].rollup.number;
    assert.equal(n('count'), 3);
    assert.equal(n('sum'), 9);
    assert.equal(n('average'), 3);
    assert.equal(n('median'), 3);
    assert.equal(n('min'), 1);
    assert.equal(n('max'), 5);
    assert.equal(n('range'), 4);
    assert.equal(n('checked'), 1);
    assert.equal(n('unchecked'), 2);
    assert.deepEqual(r.f_earliest_date.rollup.date.start, '2024-01-01');
    assert.deepEqual(r.f_latest_date.rollup.date.start, '2024-03-01');
    assert.deepEqual([r.f_date_range.rollup.date.start, r.f_date_range.rollup.date.end], ['2024-01-01', '2024-03-01']);
    assert.equal(r.f_show_original.rollup.type, 'array');
    assert.equal(r.f_show_original.rollup.array.length, 3);
    assert.equal(r.f_show_unique.rollup.array.length, 2);
    for (const fn of functions) assert.equal(r[`f_${fn}`].rollup.function, fn);
  });
});

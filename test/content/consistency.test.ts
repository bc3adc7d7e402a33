/**
 * Computed values and relation configs stay right when their inputs change in ways other than a
 * write of the page itself (issue 3: "Every computed value is right after any change of its
 * inputs, including a change on a related page"; "Renaming or deleting a property keeps pages
 * consistent"): the passing of time, a related page going to the trash and coming back, a rename
 * or deletion in a related data source, and a related data source moving to another database.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('computed values and relations stay consistent', () => {
  const { server, fx } = useServer();
  let root: Json;
  before(async () => {
    root = await makeSharedPage(server, fx);
  });

  const createDatabase = (title: string, properties: Json, parent = root.id) =>
    ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: parent }, title: text(title), initial_data_source: { properties } });
  const database = async (title: string, properties: Json, parent = root.id) => (await createDatabase(title, properties, parent)).data_sources[0].id as string;
  const page = (source: string, properties: Json) => ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source }, properties });
  const get = async (id: string) => (await ok(server, fx, 'GET', `/v1/pages/${id}`)).properties;
  const item = (id: string, property: string) => ok(server, fx, 'GET', `/v1/pages/${id}/properties/${encodeURIComponent(property)}`);
  const patch = (id: string, body: Json) => ok(server, fx, 'PATCH', `/v1/pages/${id}`, body);
  const schema = async (source: string) => (await ok(server, fx, 'GET', `/v1/data_sources/${source}`)).properties;
  const editSchema = (source: string, properties: Json) => ok(server, fx, 'PATCH', `/v1/data_sources/${source}`, { properties });

  describe('formulas that read the clock', () => {
    /** Asserts a millisecond timestamp was computed during the request that returned it. */
    const computedDuring = (value: number, before: number, after: number, what: string) =>
      assert.ok(value >= before && value <= after, `${what}: ${value} should lie in [${before}, ${after}]`);

    test('are computed as of the read, directly, through formulas, rollups and relations, on every read path', async () => {
      const clocks = await database('Clocks', {
        Clock: { title: {} },
        Stamp: { formula: { expression: 'toNumber(now())' } },
      });
      const readers = await database('Readers', {
        Reader: { title: {} },
        Fixed: { number: {} },
        Stamp: { formula: { expression: 'toNumber(now())' } },
        Later: { formula: { expression: 'prop("Stamp") + 1000' } },
        Today: { formula: { expression: 'formatDate(today(), "YYYY-MM-DD")' } },
        Plain: { formula: { expression: 'prop("Fixed") * 2' } },
        Clocks: { relation: { data_source_id: clocks, single_property: {} } },
        Latest: { rollup: { relation_property_name: 'Clocks', rollup_property_name: 'Stamp', function: 'max' } },
        Through: { formula: { expression: 'prop("Latest") + 1' } },
        Mapped: { formula: { expression: 'prop("Clocks").map(current.prop("Stamp")).max()' } },
      });
      const clock = await page(clocks, { Clock: { title: text('c') } });
      const written = Date.now();
      const reader = await page(readers, { Reader: { title: text('clockwork reader') }, Fixed: { number: 4 }, Clocks: { relation: [{ id: clock.id }] } });
      assert.ok(reader.properties.Stamp.formula.number >= written);
      await sleep(30);

      const before = Date.now();
      const p = await get(reader.id);
      const after = Date.now();
      computedDuring(p.Stamp.formula.number, before, after, 'now()');
      assert.equal(p.Later.formula.number, p.Stamp.formula.number + 1000, 'a formula reading a formula that reads now()');
      computedDuring(p.Latest.rollup.number, before, after, 'a rollup of a related formula that reads now()');
      assert.equal(p.Through.formula.number, p.Latest.rollup.number + 1, 'a formula reading that rollup');
      computedDuring(p.Mapped.formula.number, before, after, 'a formula reading the related formula');
      assert.equal(p.Today.formula.string, new Date(after).toISOString().slice(0, 10));
      assert.equal(p.Plain.formula.number, 8);

      await sleep(30);
      let start = Date.now();
      const stamp = await item(reader.id, 'Stamp');
      computedDuring(stamp.formula.number, start, Date.now(), 'property item of a formula');
      await sleep(30);
      start = Date.now();
      const latest = await item(reader.id, 'Latest');
      computedDuring(latest.property_item.rollup.number, start, Date.now(), 'property item of a rollup');

      await sleep(30);
      start = Date.now();
      const found = await ok(server, fx, 'POST', '/v1/search', { query: 'clockwork reader' });
      const hit = found.results.find((r: Json) => r.id === reader.id);
      assert.ok(hit, 'search finds the page');
      computedDuring(hit.properties.Stamp.formula.number, start, Date.now(), 'search result');
      computedDuring(hit.properties.Latest.rollup.number, start, Date.now(), 'rollup in a search result');

      await sleep(30);
      start = Date.now();
      const edited = await patch(reader.id, { properties: { Fixed: { number: 5 } } });
      computedDuring(edited.properties.Stamp.formula.number, start, Date.now(), 'page returned by an update');
      assert.equal(edited.properties.Plain.formula.number, 10);
    });

    test('the mark that a formula reads the clock stays internal and follows edits', async () => {
      const clocks = await database('Clocks 2', { Clock: { title: {} }, Stamp: { formula: { expression: 'toNumber(now())' } } });
      const readers = await database('Readers 2', {
        Reader: { title: {} },
        Clocks: { relation: { data_source_id: clocks, single_property: {} } },
        Latest: { rollup: { relation_property_name: 'Clocks', rollup_property_name: 'Stamp', function: 'max' } },
      });
      assert.deepEqual((await schema(clocks)).Stamp.formula, { expression: 'toNumber(now())' });
      const clock = await page(clocks, {});
      const reader = await page(readers, { Clocks: { relation: [{ id: clock.id }] } });
      await sleep(30);
      let start = Date.now();
      computedDuring((await get(reader.id)).Latest.rollup.number, start, Date.now(), 'rollup of a clock');

      // The related formula stops reading the clock: the rollup holds still.
      await editSchema(clocks, { Stamp: { formula: { expression: '42' } } });
      assert.equal((await get(reader.id)).Latest.rollup.number, 42);

      // And starts again.
      await editSchema(clocks, { Stamp: { formula: { expression: 'toNumber(now()) - 5' } } });
      await sleep(30);
      start = Date.now();
      computedDuring((await get(reader.id)).Latest.rollup.number + 5, start, Date.now(), 'rollup of a clock again');
    });
  });

  describe('trashed related pages', () => {
    const ledger = async (parent = root.id) => {
      const items = await database('Items', { Item: { title: {} }, Cost: { number: {} } }, parent);
      const orders = await database('Orders', {
        Order: { title: {} },
        Items: { relation: { data_source_id: items, dual_property: { synced_property_name: 'Orders' } } },
        Total: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Cost', function: 'sum' } },
        Count: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Item', function: 'count' } },
        Length: { formula: { expression: 'prop("Items").length()' } },
        Names: { formula: { expression: 'prop("Items").map(current.prop("Item")).sort().join(", ")' } },
      });
      const customers = await database('Customers', {
        Customer: { title: {} },
        Orders: { relation: { data_source_id: orders, single_property: {} } },
        Spent: { rollup: { relation_property_name: 'Orders', rollup_property_name: 'Total', function: 'sum' } },
      });
      return { items, orders, customers };
    };

    const expectOrder = async (order: string, customer: string, ids: string[], total: number, names: string) => {
      const o = await get(order);
      assert.deepEqual(
        o.Items.relation.map((r: Json) => r.id),
        ids,
      );
      assert.equal(o.Items.has_more, false);
      assert.equal(o.Total.rollup.number, total);
      assert.equal(o.Count.rollup.number, ids.length);
      assert.equal(o.Length.formula.number, ids.length);
      assert.equal(o.Names.formula.string, names);
      const listed = await item(order, o.Items.id);
      assert.deepEqual(
        listed.results.map((r: Json) => r.relation.id),
        ids,
      );
      assert.equal((await item(order, o.Total.id)).property_item.rollup.number, total);
      assert.equal((await get(customer)).Spent.rollup.number, total);
    };

    test('leave relations, rollups and formulas when trashed and come back when restored', async () => {
      const { items, orders, customers } = await ledger();
      const apple = await page(items, { Item: { title: text('apple') }, Cost: { number: 2 } });
      const bread = await page(items, { Item: { title: text('bread') }, Cost: { number: 4 } });
      const order = await page(orders, { Order: { title: text('o') }, Items: { relation: [{ id: apple.id }, { id: bread.id }] } });
      const customer = await page(customers, { Orders: { relation: [{ id: order.id }] } });
      await expectOrder(order.id, customer.id, [apple.id, bread.id], 6, 'apple, bread');

      await patch(apple.id, { in_trash: true });
      await expectOrder(order.id, customer.id, [bread.id], 4, 'bread');
      // The trashed page still shows what it relates to.
      assert.deepEqual((await get(apple.id)).Orders.relation, [{ id: order.id }]);

      await patch(apple.id, { in_trash: false });
      await expectOrder(order.id, customer.id, [apple.id, bread.id], 6, 'apple, bread');

      // The same through DELETE /v1/blocks and PATCH /v1/blocks.
      await ok(server, fx, 'DELETE', `/v1/blocks/${bread.id}`);
      await expectOrder(order.id, customer.id, [apple.id], 2, 'apple');
      await ok(server, fx, 'PATCH', `/v1/blocks/${bread.id}`, { in_trash: false });
      await expectOrder(order.id, customer.id, [apple.id, bread.id], 6, 'apple, bread');
    });

    test('leave them when trashed through a trashed ancestor, and come back with it', async () => {
      const shelf = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('Shelf') } } });
      // Only the items are on the shelf; the orders live elsewhere.
      const items = await database('Shelved items', { Item: { title: {} }, Cost: { number: {} } }, shelf.id);
      const elsewhere = await database('Orders elsewhere', {
        Order: { title: {} },
        Items: { relation: { data_source_id: items, single_property: {} } },
        Total: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Cost', function: 'sum' } },
      });
      const apple = await page(items, { Item: { title: text('apple') }, Cost: { number: 2 } });
      const bread = await page(items, { Item: { title: text('bread') }, Cost: { number: 4 } });
      const order = await page(elsewhere, { Items: { relation: [{ id: apple.id }, { id: bread.id }] } });
      assert.equal(order.properties.Total.rollup.number, 6);

      await patch(shelf.id, { in_trash: true });
      let o = await get(order.id);
      assert.deepEqual(o.Items.relation, []);
      // A sum of no numbers is empty (docs/decisions.md).
      assert.equal(o.Total.rollup.number, null);

      await patch(shelf.id, { in_trash: false });
      o = await get(order.id);
      assert.equal(o.Items.relation.length, 2);
      assert.equal(o.Total.rollup.number, 6);

      // Trashing the related database hides its pages too.
      const itemsDatabase = (await ok(server, fx, 'GET', `/v1/data_sources/${items}`)).parent.database_id;
      await ok(server, fx, 'PATCH', `/v1/databases/${itemsDatabase}`, { in_trash: true });
      assert.equal((await get(order.id)).Total.rollup.number, null);
      await ok(server, fx, 'PATCH', `/v1/databases/${itemsDatabase}`, { in_trash: false });
      assert.equal((await get(order.id)).Total.rollup.number, 6);
    });

    test('a page of 30 relations with trashed ones shows the first 25 that are not trashed', async () => {
      const items = await database('Many items', { Item: { title: {} } });
      const holders = await database('Holders', { H: { title: {} }, Items: { relation: { data_source_id: items, single_property: {} } } });
      const related: Json[] = [];
      for (let i = 0; i < 30; i++) related.push(await page(items, { Item: { title: text(`i${i}`) } }));
      const holder = await page(holders, { Items: { relation: related.map((r) => ({ id: r.id })) } });
      assert.equal(holder.properties.Items.has_more, true);
      for (const r of related.slice(0, 6)) await patch(r.id, { in_trash: true });
      const shown = (await get(holder.id)).Items;
      assert.deepEqual(
        shown.relation.map((r: Json) => r.id),
        related.slice(6, 31).map((r) => r.id),
      );
      assert.equal(shown.has_more, false);
    });
  });

  describe('renaming and deleting a property read through a relation', () => {
    test('a rename in the related data source is rewritten in formulas, and only where they read it', async () => {
      const tasks = await database('Tasks', { Task: { title: {} }, Estimate: { number: {} } });
      const projects = await database('Projects', {
        Project: { title: {} },
        Estimate: { number: {} },
        Tasks: { relation: { data_source_id: tasks, single_property: {} } },
        Work: { formula: { expression: 'prop("Tasks").map(current.prop("Estimate")).sum()' } },
        Both: { formula: { expression: 'prop("Estimate") + prop("Tasks").map(current.prop("Estimate")).sum()' } },
      });
      const t1 = await page(tasks, { Estimate: { number: 2 } });
      const t2 = await page(tasks, { Estimate: { number: 3 } });
      const project = await page(projects, { Estimate: { number: 10 }, Tasks: { relation: [{ id: t1.id }, { id: t2.id }] } });
      assert.equal(project.properties.Work.formula.number, 5);
      assert.equal(project.properties.Both.formula.number, 15);

      await editSchema(tasks, { Estimate: { name: 'Points' } });
      let s = await schema(projects);
      assert.equal(s.Work.formula.expression, 'prop("Tasks").map(current.prop("Points")).sum()');
      assert.equal(s.Both.formula.expression, 'prop("Estimate") + prop("Tasks").map(current.prop("Points")).sum()');
      let p = await get(project.id);
      assert.equal(p.Work.formula.number, 5);
      assert.equal(p.Both.formula.number, 15);
      // The formulas still follow the related pages.
      await patch(t1.id, { properties: { Points: { number: 7 } } });
      p = await get(project.id);
      assert.equal(p.Work.formula.number, 10);
      assert.equal(p.Both.formula.number, 20);

      // A rename in the data source itself leaves what is read through the relation alone.
      await editSchema(projects, { Estimate: { name: 'Budget' } });
      s = await schema(projects);
      assert.equal(s.Both.formula.expression, 'prop("Budget") + prop("Tasks").map(current.prop("Points")).sum()');
      // Renaming the relation rewrites where it is read.
      await editSchema(projects, { Tasks: { name: 'Work items' } });
      s = await schema(projects);
      assert.equal(s.Work.formula.expression, 'prop("Work items").map(current.prop("Points")).sum()');
      p = await get(project.id);
      assert.equal(p.Both.formula.number, 20);

      // Still editable: the rewritten formulas compile.
      await editSchema(projects, { Extra: { formula: { expression: 'prop("Work") * 2' } } });
      assert.equal((await get(project.id)).Extra.formula.number, 20);
    });

    test('a formula named like the related property it reads is not taken for a cycle', async () => {
      const tasks = await database('Tasks 2', { Task: { title: {} }, Size: { number: {} } });
      const projects = await database('Projects 2', {
        Project: { title: {} },
        Tasks: { relation: { data_source_id: tasks, single_property: {} } },
        Size: { formula: { expression: 'prop("Tasks").map(current.prop("Size")).sum()' } },
      });
      const t = await page(tasks, { Size: { number: 4 } });
      const project = await page(projects, { Tasks: { relation: [{ id: t.id }] } });
      assert.equal(project.properties.Size.formula.number, 4);
    });

    test('a self relation: a rename rewrites both the own and the related read', async () => {
      const people = await database('People', { Person: { title: {} }, Age: { number: {} } });
      await editSchema(people, {
        Friends: { relation: { data_source_id: people, single_property: {} } },
        Ages: { formula: { expression: 'prop("Age") + prop("Friends").map(current.prop("Age")).sum()' } },
      });
      const ann = await page(people, { Age: { number: 30 } });
      const bob = await page(people, { Age: { number: 40 }, Friends: { relation: [{ id: ann.id }] } });
      assert.equal(bob.properties.Ages.formula.number, 70);
      await editSchema(people, { Age: { name: 'Years' } });
      assert.equal((await schema(people)).Ages.formula.expression, 'prop("Years") + prop("Friends").map(current.prop("Years")).sum()');
      assert.equal((await get(bob.id)).Ages.formula.number, 70);
    });

    test('deleting it empties the formulas reading it, as deleting a property of the same data source does', async () => {
      const tasks = await database('Tasks 3', { Task: { title: {} }, Estimate: { number: {} } });
      const projects = await database('Projects 3', {
        Project: { title: {} },
        Local: { number: {} },
        Tasks: { relation: { data_source_id: tasks, single_property: {} } },
        Own: { formula: { expression: 'prop("Local") * 2' } },
        Work: { formula: { expression: 'prop("Tasks").map(current.prop("Estimate")).sum()' } },
        Total: { rollup: { relation_property_name: 'Tasks', rollup_property_name: 'Estimate', function: 'sum' } },
      });
      const t = await page(tasks, { Estimate: { number: 2 } });
      const project = await page(projects, { Local: { number: 1 }, Tasks: { relation: [{ id: t.id }] } });
      assert.equal(project.properties.Own.formula.number, 2);
      assert.equal(project.properties.Work.formula.number, 2);
      // A project relating to no task reads the property all the same.
      const idle = await page(projects, { Local: { number: 1 } });
      assert.equal(idle.properties.Work.formula.number, 0);

      await editSchema(projects, { Local: null });
      const own = (await get(project.id)).Own.formula;
      assert.equal((await schema(projects)).Own.formula.expression, 'prop("Local") * 2');

      await editSchema(tasks, { Estimate: null });
      const p = await get(project.id);
      assert.deepEqual(p.Work.formula, own);
      assert.deepEqual((await get(idle.id)).Work.formula, own);
      assert.equal((await schema(projects)).Work.formula.expression, 'prop("Tasks").map(current.prop("Estimate")).sum()');
      assert.equal(p.Total.rollup.number, null);
      assert.deepEqual((await item(project.id, p.Work.id)).formula, own);
    });
  });

  describe('moving a data source to another database', () => {
    test('relation configs pointing at it name its new database', async () => {
      const first = await createDatabase('First', { Task: { title: {} } });
      const second = await createDatabase('Second', { Other: { title: {} } });
      const moved = first.data_sources[0].id as string;
      const projects = await database('Projects 4', {
        Project: { title: {} },
        Tasks: { relation: { data_source_id: moved, dual_property: { synced_property_name: 'Projects' } } },
        Single: { relation: { data_source_id: moved, single_property: {} } },
      });
      await editSchema(moved, { Self: { relation: { data_source_id: moved, single_property: {} } } });
      let s = await schema(projects);
      assert.equal(s.Tasks.relation.database_id, first.id);

      await ok(server, fx, 'PATCH', `/v1/data_sources/${moved}`, { parent: { type: 'database_id', database_id: second.id } });
      s = await schema(projects);
      assert.equal(s.Tasks.relation.database_id, second.id);
      assert.equal(s.Tasks.relation.data_source_id, moved);
      assert.equal(s.Single.relation.database_id, second.id);
      const own = await schema(moved);
      assert.equal(own.Self.relation.database_id, second.id);
      const projectsDatabase = (await ok(server, fx, 'GET', `/v1/data_sources/${projects}`)).parent.database_id;
      assert.equal(own.Projects.relation.database_id, projectsDatabase);

      // Before 2025-09-03 the database carries its properties, with the same relation configs.
      const legacy = await ok(server, fx, 'GET', `/v1/databases/${projectsDatabase}`, undefined, '2022-06-28');
      assert.equal(legacy.properties.Tasks.relation.database_id, second.id);
    });
  });
});

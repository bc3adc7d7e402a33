/**
 * Computed values and relation configs stay right when their inputs change in ways other than a
 * write of the page itself (issue 3: "Every computed value is right after any change of its
 * inputs, including a change on a related page"; "Renaming or deleting a property keeps pages
 * consistent"): the passing of time, a related page going to the trash and coming back, a rename
 * or deletion in a related data source, and a related data source moving to another database.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('computed values and relations stay consistent', () => {
  let server: TestServer;
  let fx: Fixture;
  let root: Json;
  before(async () => {
    server = await startTestServer();
    fx = await makeWorkspace(server);
    root = await makeSharedPage(server, fx);
  });
  after(() => server.close());

  const createDatabase = (title: string, properties: Json, parent = root.id) =>
    ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: parent }, title: text(title), initial_data_source: { properties } });
  const database = async (title: string, properties: Json, parent = root.id) => (await createDatabase(title, properties, parent)).data_sources[0].id as string;
  const page = (source: string, properties: Json) => ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source }, properties });
  const get = async (id: string) => (await ok(server, fx, 'GET', `/v1/pages/${id}`)).properties;
  const item = (id: string, property: string) => ok(server, fx, 'GET', `/v1/pages/${id}/properties/${encodeURIComponent(property)}`);
  const patch = (id: string, body: Json) => ok(server, fx, 'PATCH', `/v1/pages/${id}`, body);
  const schema = async (source: string) => (await ok(server, fx, 'GET', `/v1/data_sources/${source}`)).properties;
  const editSchema = (source: string, properties: Json) => ok(server, fx, 'PATCH', `/v1/data_sources/${source}`, { properties });

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
});

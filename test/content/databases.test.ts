import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { everyTypeSchema, expectValidation, fails, ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('databases and data sources', () => {
  const { server, fx } = useServer();
  let root: Json;
  let tasks: Json;
  before(async () => {
    root = await makeSharedPage(server, fx);
    tasks = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Tasks'),
      initial_data_source: { properties: { Task: { title: {} }, Points: { number: {} } } },
    });
  });

  const createDatabase = (properties: Json, title = 'Projects') =>
    ok(server, fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, title: text(title), initial_data_source: { properties } });

  test('a database with every property type; its data source shows every configuration', async () => {
    const database = await createDatabase(everyTypeSchema(tasks.data_sources[0].id));
    assert.equal(database.object, 'database');
    assert.equal(database.properties, undefined);
    assert.equal(database.data_sources.length, 1);
    assert.equal(database.data_sources[0].name, 'Projects');
    const source = await ok(server, fx, 'GET', `/v1/data_sources/${database.data_sources[0].id}`);
    assert.equal(source.object, 'data_source');
    assert.deepEqual(source.parent, { type: 'database_id', database_id: database.id });
    assert.deepEqual(source.database_parent, { type: 'page_id', page_id: root.id });
    const p = source.properties;
    assert.equal(Object.keys(p).length, 22);
    assert.equal(p.Name.id, 'title');
    assert.deepEqual(p.Price.number, { format: 'dollar' });
    assert.deepEqual(
      p.Kind.select.options.map((o: Json) => [o.name, o.color]),
      [
        ['A', 'red'],
        ['B', 'default'],
      ],
    );
    assert.deepEqual(
      p.Stage.status.groups.map((g: Json) => g.name),
      ['To-do', 'In progress', 'Complete'],
    );
    assert.deepEqual(
      p.Stage.status.options.map((o: Json) => o.name),
      ['Not started', 'In progress', 'Done'],
    );
    assert.deepEqual(p.Stage.status.groups[2].option_ids, [p.Stage.status.options[2].id]);
    assert.deepEqual(p.Double.formula, { expression: 'prop("Price") * 2' });
    assert.equal(p.Tasks.relation.type, 'dual_property');
    assert.equal(p.Tasks.relation.data_source_id, tasks.data_sources[0].id);
    assert.equal(p.Tasks.relation.database_id, tasks.id);
    assert.deepEqual(p.Points.rollup, {
      function: 'sum',
      relation_property_id: p.Tasks.id,
      relation_property_name: 'Tasks',
      rollup_property_id: p.Points.rollup.rollup_property_id,
      rollup_property_name: 'Points',
    });
    assert.deepEqual(p.Ref.unique_id, { prefix: 'REF' });
    for (const [name, property] of Object.entries<Json>(p)) {
      assert.equal(property.name, name);
      assert.match(property.id, /^[A-Za-z0-9%_-]+$/, 'property ids are URL-safe');
      assert.ok(property.type in property);
    }
    // The dual relation created its other side.
    const other = await ok(server, fx, 'GET', `/v1/data_sources/${tasks.data_sources[0].id}`);
    const synced = other.properties[p.Tasks.relation.dual_property.synced_property_name];
    assert.equal(synced.type, 'relation');
    assert.equal(synced.id, p.Tasks.relation.dual_property.synced_property_id);
    assert.deepEqual(synced.relation.dual_property, { synced_property_id: p.Tasks.id, synced_property_name: 'Tasks' });
  });

  test('GET /v1/databases/{id} lists data sources; the data source API adds and lists more', async () => {
    const database = await createDatabase({ Name: { title: {} } }, 'Multi');
    const second = await ok(server, fx, 'POST', '/v1/data_sources', {
      parent: { database_id: database.id },
      title: text('Second'),
      properties: { Title: { title: {} }, Size: { number: { format: 'percent' } } },
    });
    assert.equal(second.parent.database_id, database.id);
    const again = await ok(server, fx, 'GET', `/v1/databases/${database.id.replace(/-/g, '')}`);
    assert.deepEqual(
      again.data_sources.map((s: Json) => s.name),
      ['Multi', 'Second'],
    );
    // A database_id page parent needs a single data source.
    const res = await fails(server, fx, 'POST', '/v1/pages', { parent: { database_id: database.id }, properties: {} });
    expectValidation(res, 'body.parent.database_id');
  });

  test('a database without a title property gets "Name"; two title properties are refused', async () => {
    const database = await createDatabase({ Size: { number: {} } }, 'No title');
    const source = await ok(server, fx, 'GET', `/v1/data_sources/${database.data_sources[0].id}`);
    assert.equal(source.properties.Name.type, 'title');
    const res = await fails(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      initial_data_source: { properties: { A: { title: {} }, B: { title: {} } } },
    });
    expectValidation(res, 'body.initial_data_source.properties.B.title');
  });

  test('bad configurations are validation errors naming the field', async () => {
    const cases: [Json, string][] = [
      [{ X: { number: { format: 'bitcoin' } } }, 'body.initial_data_source.properties.X.number.format'],
      [{ X: { bogus: {} } }, 'body.initial_data_source.properties.X.bogus'],
      [{ X: { type: 'bogus' } }, 'body.initial_data_source.properties.X.type'],
      [{ X: { select: { options: [{ name: 'a,b' }] } } }, 'body.initial_data_source.properties.X.select.options[0].name'],
      [{ X: { select: { options: [{ name: 'a' }, { name: 'A' }] } } }, 'body.initial_data_source.properties.X.select.options[1].name'],
      [{ X: { formula: { expression: 'prop("Nope") + 1' } } }, 'body.initial_data_source.properties.X.formula.expression'],
      [{ X: { formula: { expression: '1 +' } } }, 'position'],
      [{ X: { rollup: { function: 'sum', relation_property_name: 'Nope', rollup_property_name: 'Points' } } }, 'relation_property_name'],
      [
        { X: { rollup: { function: 'avg', relation_property_name: 'Nope', rollup_property_name: 'Points' } } },
        'body.initial_data_source.properties.X.rollup.function',
      ],
      [
        { X: { relation: { data_source_id: '5e9e4a37-66f4-4e39-b6d8-000000000000', single_property: {} } } },
        'body.initial_data_source.properties.X.relation.data_source_id',
      ],
      [{ X: { relation: { single_property: {} } } }, 'body.initial_data_source.properties.X.relation.data_source_id'],
      [{ X: { number: {}, checkbox: {} } }, 'body.initial_data_source.properties.X.checkbox'],
      [{ X: { unique_id: {} }, Y: { unique_id: {} } }, 'unique_id'],
      [{ X: 5 }, 'body.initial_data_source.properties.X'],
    ];
    for (const [properties, field] of cases) {
      const res = await fails(server, fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, initial_data_source: { properties } });
      expectValidation(res, field);
    }
  });

  test('a formula that does not compile reports the position', async () => {
    const res = await fails(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      initial_data_source: { properties: { N: { title: {} }, F: { formula: { expression: 'prop("N") + ' } } } },
    });
    expectValidation(res, /formula\.expression should be a valid formula \(.* at position \d+\)/);
  });

  test('PATCH /v1/data_sources renames, reconfigures, adds and deletes properties', async () => {
    const database = await createDatabase({
      Name: { title: {} },
      Amount: { number: {} },
      Twice: { formula: { expression: 'prop("Amount") * 2' } },
      Color: { select: { options: [{ name: 'red', color: 'red' }] } },
    });
    const sourceId = database.data_sources[0].id;
    const page = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: sourceId },
      properties: { Name: { title: text('row') }, Amount: { number: 4 }, Color: { select: { name: 'red' } } },
    });
    assert.equal(page.properties.Twice.formula.number, 8);
    const before = await ok(server, fx, 'GET', `/v1/data_sources/${sourceId}`);
    const redId = before.properties.Color.select.options[0].id;
    const updated = await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, {
      properties: {
        Amount: { name: 'Total' },
        Color: { select: { options: [{ id: redId, name: 'crimson', color: 'pink' }, { name: 'blue' }] } },
        Extra: { checkbox: {} },
        Twice: { formula: { expression: 'prop("Total") * 3' } },
      },
    });
    assert.ok(updated.properties.Total);
    assert.equal(updated.properties.Amount, undefined);
    assert.deepEqual(
      updated.properties.Color.select.options.map((o: Json) => o.name),
      ['crimson', 'blue'],
    );
    assert.equal(updated.properties.Extra.type, 'checkbox');
    const reread = await ok(server, fx, 'GET', `/v1/pages/${page.id}`);
    assert.equal(reread.properties.Total.number, 4);
    assert.equal(reread.properties.Twice.formula.number, 12);
    assert.deepEqual(reread.properties.Color.select, { id: redId, name: 'crimson', color: 'pink' });
    assert.equal(reread.properties.Extra.checkbox, false);

    // A rename is followed by formulas.
    await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: { Total: { name: 'Sum' } } });
    const renamed = await ok(server, fx, 'GET', `/v1/data_sources/${sourceId}`);
    assert.equal(renamed.properties.Twice.formula.expression, 'prop("Sum") * 3');
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${page.id}`)).properties.Twice.formula.number, 12);

    // Deleting and changing a type keep pages consistent.
    await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: { Color: null, Extra: { rich_text: {} } } });
    const after = await ok(server, fx, 'GET', `/v1/pages/${page.id}`);
    assert.equal(after.properties.Color, undefined);
    assert.deepEqual(after.properties.Extra.rich_text, []);
    const title = await fails(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: { Name: null } });
    expectValidation(title, 'body.properties.Name');
    const missing = await fails(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: { Nope: null } });
    expectValidation(missing, 'body.properties.Nope');
  });

  test('updating the database: title, description, icon, cover, inline, lock', async () => {
    const database = await createDatabase({ Name: { title: {} } }, 'Old title');
    const updated = await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, {
      title: text('New title'),
      description: text('about'),
      icon: { emoji: '📚' },
      cover: { external: { url: 'https://example.com/c.png' } },
      is_inline: true,
    });
    assert.equal(updated.title[0].plain_text, 'New title');
    assert.equal(updated.description[0].plain_text, 'about');
    assert.deepEqual(updated.icon, { type: 'emoji', emoji: '📚' });
    assert.deepEqual(updated.cover, { type: 'external', external: { url: 'https://example.com/c.png' } });
    assert.equal(updated.is_inline, true);
    assert.equal(updated.data_sources[0].name, 'New title');
    const locked = await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, { is_locked: true });
    assert.equal(locked.is_locked, true);
    expectValidation(await fails(server, fx, 'PATCH', `/v1/databases/${database.id}`, { title: text('x') }), 'locked');
    expectValidation(await fails(server, fx, 'PATCH', `/v1/data_sources/${database.data_sources[0].id}`, { properties: { X: { checkbox: {} } } }), 'locked');
    await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, { is_locked: false, title: text('unlocked') });
  });

  test('trashing a database trashes its data sources and pages; restoring brings them back', async () => {
    const database = await createDatabase({ Name: { title: {} } }, 'Trash me');
    const sourceId = database.data_sources[0].id;
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: sourceId }, properties: { Name: { title: text('row') } } });
    const trashed = await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, { in_trash: true });
    assert.equal(trashed.in_trash, true);
    assert.equal((await ok(server, fx, 'GET', `/v1/data_sources/${sourceId}`)).in_trash, true);
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${page.id}`)).in_trash, true);
    expectValidation(await fails(server, fx, 'PATCH', `/v1/databases/${database.id}`, { title: text('x') }), 'archived');
    expectValidation(await fails(server, fx, 'PATCH', `/v1/databases/${database.id}`, { in_trash: true }), 'archived');
    const restored = await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, { in_trash: false });
    assert.equal(restored.in_trash, false);
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${page.id}`)).in_trash, false);
    const source = await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { in_trash: true });
    assert.equal(source.in_trash, true);
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${page.id}`)).in_trash, true);
    assert.equal((await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { in_trash: false })).in_trash, false);
  });

  test('a database moves to another page', async () => {
    const database = await createDatabase({ Name: { title: {} } }, 'Mover');
    const other = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('Other') } } });
    const moved = await ok(server, fx, 'PATCH', `/v1/databases/${database.id}`, { parent: { page_id: other.id } });
    assert.deepEqual(moved.parent, { type: 'page_id', page_id: other.id });
    const source = await ok(server, fx, 'GET', `/v1/data_sources/${database.data_sources[0].id}`);
    assert.deepEqual(source.database_parent, { type: 'page_id', page_id: other.id });
  });

  test('capabilities and sharing', async () => {
    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${reader.id}/grants`, { object_id: root.id });
    const refused = await call(server.url, 'POST', '/v1/databases', { token: reader.token, body: { parent: { page_id: root.id } } });
    assert.equal(refused.status, 403);
    assert.equal((refused.body as Json).code, 'restricted_resource');
    assert.equal((await call(server.url, 'GET', `/v1/databases/${tasks.id}`, { token: reader.token })).status, 200);

    const stranger = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content', 'update_content']);
    const hidden = await call(server.url, 'GET', `/v1/databases/${tasks.id}`, { token: stranger.token });
    assert.equal(hidden.status, 404);
    assert.equal((hidden.body as Json).code, 'object_not_found');
    const notParent = await call(server.url, 'POST', '/v1/databases', { token: stranger.token, body: { parent: { page_id: root.id } } });
    assert.equal(notParent.status, 404);
    // A workspace-level database is the creator's to see.
    const own = await call<Json>(server.url, 'POST', '/v1/databases', { token: stranger.token, body: { parent: { workspace: true }, title: text('Mine') } });
    assert.equal(own.status, 200);
    assert.equal((await call(server.url, 'GET', `/v1/data_sources/${own.body.data_sources[0].id}`, { token: stranger.token })).status, 200);
    assert.equal((await call(server.url, 'GET', `/v1/databases/${own.body.id}`, { token: fx.token })).status, 404);

    const inserter = await addConnection(server, fx.workspaceId, ['insert_content']);
    await admin(server, 'POST', `/connections/${inserter.id}/grants`, { object_id: root.id });
    const partial = await call<Json>(server.url, 'POST', '/v1/databases', { token: inserter.token, body: { parent: { page_id: root.id } } });
    assert.equal(partial.status, 200);
    assert.deepEqual(Object.keys(partial.body).sort(), ['id', 'object']);
  });
});

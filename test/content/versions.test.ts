import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { directParents } from '../../src/versioning/changes/2022-06-28-parents.js';
import { ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('version modules of the content model (old and new shape of the same object)', () => {
  const { server, fx } = useServer();
  let root: Json;
  let people: Json;
  let projects: Json;
  let row: Json;
  before(async () => {
    root = await makeSharedPage(server, fx);
    people = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('People'),
      initial_data_source: { properties: { Who: { title: {} } } },
    });
    projects = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Projects'),
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Notes: { rich_text: {} },
          Team: { relation: { data_source_id: people.data_sources[0].id, dual_property: { synced_property_name: 'Projects' } } },
          Solo: { relation: { data_source_id: people.data_sources[0].id, single_property: {} } },
        },
      },
    });
    row = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: projects.data_sources[0].id },
      properties: { Name: { title: text('P') }, Notes: { rich_text: text('hello') } },
    });
  });

  test('2021-05-13: rich_text property values and schemas were text', async () => {
    const now = await ok(server, fx, 'GET', `/v1/pages/${row.id}`, undefined, '2021-05-13');
    assert.equal(now.properties.Notes.type, 'rich_text');
    assert.equal(now.properties.Notes.rich_text[0].plain_text, 'hello');
    const before = await ok(server, fx, 'GET', `/v1/pages/${row.id}`, undefined, '2021-05-11');
    assert.equal(before.properties.Notes.type, 'text');
    assert.equal(before.properties.Notes.text[0].plain_text, 'hello');
    assert.equal(before.properties.Notes.rich_text, undefined);
    const schemaBefore = await ok(server, fx, 'GET', `/v1/databases/${projects.id}`, undefined, '2021-05-11');
    assert.deepEqual([schemaBefore.properties.Notes.type, schemaBefore.properties.Notes.text], ['text', {}]);
    const item = await ok(server, fx, 'GET', `/v1/pages/${row.id}/properties/${now.properties.Notes.id}`, undefined, '2021-05-11');
    assert.equal(item.property_item.type, 'text');
    assert.equal(item.results[0].type, 'text');
    // Old requests say text, too.
    const written = await ok(server, fx, 'PATCH', `/v1/pages/${row.id}`, { properties: { Notes: { text: text('old style') } } }, '2021-05-11');
    assert.equal(written.properties.Notes.text[0].plain_text, 'old style');
    const created = await ok(
      server,
      fx,
      'POST',
      '/v1/databases',
      { parent: { page_id: root.id }, properties: { N: { title: {} }, Old: { text: {} } } },
      '2021-05-11',
    );
    assert.equal(created.properties.Old.type, 'text');
    assert.equal((await ok(server, fx, 'GET', `/v1/databases/${created.id}`)).data_sources.length, 1);
  });

  test('2022-06-28: relations have a type; before, synced_property_name and id', async () => {
    const now = await ok(server, fx, 'GET', `/v1/databases/${projects.id}`, undefined, '2022-06-28');
    assert.equal(now.properties.Team.relation.type, 'dual_property');
    assert.equal(now.properties.Team.relation.dual_property.synced_property_name, 'Projects');
    assert.deepEqual(now.properties.Solo.relation, { database_id: people.id, type: 'single_property', single_property: {} });
    const before = await ok(server, fx, 'GET', `/v1/databases/${projects.id}`, undefined, '2022-02-22');
    assert.deepEqual(before.properties.Team.relation, {
      database_id: people.id,
      synced_property_name: 'Projects',
      synced_property_id: now.properties.Team.relation.dual_property.synced_property_id,
    });
    assert.deepEqual(before.properties.Solo.relation, { database_id: people.id, synced_property_name: null, synced_property_id: null });
    // An old relation request without a type was two-way.
    const created = await ok(
      server,
      fx,
      'POST',
      '/v1/databases',
      {
        parent: { page_id: root.id },
        properties: { N: { title: {} }, Link: { relation: { database_id: people.id, synced_property_name: 'Linked' } } },
      },
      '2022-02-22',
    );
    assert.equal(created.properties.Link.relation.synced_property_name, 'Linked');
    const other = await ok(server, fx, 'GET', `/v1/data_sources/${people.data_sources[0].id}`);
    assert.equal(other.properties.Linked.relation.type, 'dual_property');
  });

  test('2022-06-28: an object under a block named the page it is in', () => {
    const head = {
      object: 'page',
      id: 'p',
      parent: { type: 'block_id', block_id: 'b' },
    };
    const old = directParents.downgradeResponse!({ route: 'GET /v1/pages/:page_id', body: head, facts: { enclosingPageId: 'outer' } }) as Json;
    assert.deepEqual(old.parent, { type: 'page_id', page_id: 'outer' });
    assert.deepEqual(JSON.parse(JSON.stringify(head)).parent, { type: 'block_id', block_id: 'b' });
  });

  test('2025-09-03: a database lists data sources; before, it carried the properties', async () => {
    const now = await ok(server, fx, 'GET', `/v1/databases/${projects.id}`, undefined, '2025-09-03');
    assert.deepEqual(now.data_sources, [{ id: projects.data_sources[0].id, name: 'Projects' }]);
    assert.equal(now.properties, undefined);
    assert.equal(now.created_by, undefined);
    const before = await ok(server, fx, 'GET', `/v1/databases/${projects.id}`, undefined, '2022-06-28');
    assert.equal(before.data_sources, undefined);
    assert.deepEqual(Object.keys(before.properties), ['Name', 'Notes', 'Team', 'Solo']);
    assert.equal(before.properties.Team.relation.data_source_id, undefined);
    assert.equal(before.properties.Team.relation.database_id, people.id);
    assert.deepEqual(before.created_by, { object: 'user', id: fx.connection.bot_id });
    assert.equal(before._legacy, undefined);
    const source = await ok(server, fx, 'GET', `/v1/data_sources/${projects.data_sources[0].id}`, undefined, '2025-09-03');
    assert.equal(source.properties.Team.relation.data_source_id, people.data_sources[0].id);
  });

  test('2025-09-03: a page in a database had a database_id parent', async () => {
    const now = await ok(server, fx, 'GET', `/v1/pages/${row.id}`, undefined, '2025-09-03');
    assert.deepEqual(now.parent, { type: 'data_source_id', data_source_id: projects.data_sources[0].id, database_id: projects.id });
    const before = await ok(server, fx, 'GET', `/v1/pages/${row.id}`, undefined, '2022-06-28');
    assert.deepEqual(before.parent, { type: 'database_id', database_id: projects.id });
  });

  test('2025-09-03: POST /v1/databases took properties; PATCH changed them; no data source endpoints', async () => {
    const created = await ok(
      server,
      fx,
      'POST',
      '/v1/databases',
      { parent: { page_id: root.id }, title: text('Old'), properties: { Title: { title: {} }, Size: { number: { format: 'euro' } } } },
      '2022-06-28',
    );
    assert.deepEqual(created.properties.Size.number, { format: 'euro' });
    const patched = await ok(
      server,
      fx,
      'PATCH',
      `/v1/databases/${created.id}`,
      { properties: { Size: { name: 'Bigness' }, Flag: { checkbox: {} } } },
      '2022-06-28',
    );
    assert.deepEqual(Object.keys(patched.properties), ['Title', 'Bigness', 'Flag']);
    const res = await call<Json>(server.url, 'GET', `/v1/data_sources/${projects.data_sources[0].id}`, { token: fx.token, version: '2022-06-28' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_request_url');
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { database_id: created.id }, properties: { Title: { title: text('x') } } }, '2022-06-28');
    assert.deepEqual(page.parent, { type: 'database_id', database_id: created.id });
  });
});

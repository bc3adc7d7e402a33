import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { fails, ok, text } from '../content/helpers.js';

type Json = Record<string, any>;

/** A first pass over the query endpoint: one condition of each family, compounds, sorts, cursors, versions. */
describe('queries: basics', () => {
  const { server, fx } = useServer();
  let items: string;
  let tasks: string;
  let databaseId: string;
  const ids: Record<string, string> = {};

  const query = async (body: Json, source = tasks) => {
    const res = await ok(server, fx, 'POST', `/v1/data_sources/${source}/query`, body);
    return res;
  };
  const names = async (filter: Json, extra: Json = {}) => {
    const res = await query({ filter, ...extra });
    return res.results.map((p: Json) => p.properties.Name.title[0]?.plain_text ?? '').sort();
  };

  before(async () => {
    const root = await makeSharedPage(server, fx);
    const itemsDb = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Items'),
      initial_data_source: { properties: { Item: { title: {} }, Cost: { number: {} }, Kind: { select: { options: [{ name: 'fruit' }, { name: 'veg' }] } } } },
    });
    items = itemsDb.data_sources[0].id;
    const mk = (source: string, properties: Json) => ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source }, properties });
    const apple = await mk(items, { Item: { title: text('apple') }, Cost: { number: 2 }, Kind: { select: { name: 'fruit' } } });
    const leek = await mk(items, { Item: { title: text('leek') }, Cost: { number: 5 }, Kind: { select: { name: 'veg' } } });
    const db = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Tasks'),
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Notes: { rich_text: {} },
          Points: { number: {} },
          Done: { checkbox: {} },
          Tag: { select: { options: [{ name: 'a' }, { name: 'b' }] } },
          Labels: { multi_select: { options: [{ name: 'x' }, { name: 'y' }] } },
          Stage: { status: {} },
          Due: { date: {} },
          Items: { relation: { data_source_id: items, single_property: {} } },
          Total: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Cost', function: 'sum' } },
          Kinds: { rollup: { relation_property_name: 'Items', rollup_property_name: 'Kind', function: 'show_original' } },
          Double: { formula: { expression: 'prop("Points") * 2' } },
        },
      },
    });
    databaseId = db.id;
    tasks = db.data_sources[0].id;
    ids.one = (
      await mk(tasks, {
        Name: { title: text('One') },
        Notes: { rich_text: text('Éclair au café') },
        Points: { number: 1 },
        Done: { checkbox: true },
        Tag: { select: { name: 'a' } },
        Labels: { multi_select: [{ name: 'x' }] },
        Due: { date: { start: '2026-01-10' } },
        Items: { relation: [{ id: apple.id }] },
      })
    ).id;
    ids.two = (
      await mk(tasks, {
        Name: { title: text('Two') },
        Notes: { rich_text: text('ÉCLAIR') },
        Points: { number: 5 },
        Tag: { select: { name: 'b' } },
        Labels: { multi_select: [{ name: 'x' }, { name: 'y' }] },
        Stage: { status: { name: 'In progress' } },
        Due: { date: { start: '2026-01-09T10:00:00Z', end: '2026-01-12T10:00:00Z' } },
        Items: { relation: [{ id: apple.id }, { id: leek.id }] },
      })
    ).id;
    ids.three = (await mk(tasks, { Name: { title: text('Three') }, Points: { number: 3 } })).id;
  });

  test('one condition of each family', async () => {
    assert.deepEqual(await names({ property: 'Notes', rich_text: { contains: 'éclair' } }), ['One', 'Two']);
    assert.deepEqual(await names({ property: 'Notes', rich_text: { equals: 'éclair' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Notes', rich_text: { is_empty: true } }), ['Three']);
    assert.deepEqual(await names({ property: 'Notes', rich_text: { does_not_contain: 'CAFÉ' } }), ['Three', 'Two']);
    assert.deepEqual(await names({ property: 'Notes', rich_text: { starts_with: 'écl' } }), ['One', 'Two']);
    assert.deepEqual(await names({ property: 'Notes', rich_text: { ends_with: 'CAFÉ' } }), ['One']);
    assert.deepEqual(await names({ property: 'Name', title: { equals: 'two' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Points', number: { greater_than: 1 } }), ['Three', 'Two']);
    assert.deepEqual(await names({ property: 'Points', number: { does_not_equal: 5 } }), ['One', 'Three']);
    assert.deepEqual(await names({ property: 'Done', checkbox: { equals: false } }), ['Three', 'Two']);
    assert.deepEqual(await names({ property: 'Tag', select: { equals: ['a', 'b'] } }), ['One', 'Two']);
    assert.deepEqual(await names({ property: 'Tag', select: { does_not_equal: 'a' } }), ['Three', 'Two']);
    assert.deepEqual(await names({ property: 'Labels', multi_select: { contains: 'y' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Labels', multi_select: { does_not_contain: 'x' } }), ['Three']);
    assert.deepEqual(await names({ property: 'Stage', status: { equals: 'In progress' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Stage', status: { equals: 'To-do' } }), ['One', 'Three']);
    assert.deepEqual(await names({ property: 'Due', date: { equals: '2026-01-11' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Due', date: { on_or_after: '2026-01-10' } }), ['One', 'Two']);
    assert.deepEqual(await names({ property: 'Due', date: { before: '2026-01-10' } }), ['Two']);
    assert.deepEqual(await names({ property: 'Items', relation: { is_empty: true } }), ['Three']);
    assert.deepEqual(await names({ property: 'Total', rollup: { number: { greater_than: 3 } } }), ['Two']);
    assert.deepEqual(await names({ property: 'Kinds', rollup: { any: { select: { equals: 'veg' } } } }), ['Two']);
    assert.deepEqual(await names({ property: 'Kinds', rollup: { every: { select: { equals: 'fruit' } } } }), ['One', 'Three']);
    assert.deepEqual(await names({ property: 'Kinds', rollup: { none: { select: { equals: 'fruit' } } } }), ['Three']);
    assert.deepEqual(await names({ property: 'Double', formula: { number: { equals: 6 } } }), ['Three']);
    assert.deepEqual(await names({ timestamp: 'created_time', created_time: { on_or_before: 'today' } }), ['One', 'Three', 'Two']);
    assert.deepEqual(await names({ property: 'Name', people: { contains: 'me' } }).catch(() => 'refused'), 'refused');
  });

  test('compounds nest two levels; a third is refused', async () => {
    const filter = {
      or: [
        { property: 'Points', number: { equals: 3 } },
        {
          and: [
            { property: 'Done', checkbox: { equals: true } },
            { property: 'Tag', select: { equals: 'a' } },
          ],
        },
      ],
    };
    assert.deepEqual(await names(filter), ['One', 'Three']);
    const deep = await fails(server, fx, 'POST', `/v1/data_sources/${tasks}/query`, { filter: { and: [{ or: [{ and: [] }] }] } });
    assert.equal(deep.status, 400);
    assert.match(String(deep.body.message), /body\.filter\.and\[0\]\.or\[0\]/);
    const unknown = await fails(server, fx, 'POST', `/v1/data_sources/${tasks}/query`, { filter: { property: 'Nope', number: { equals: 1 } } });
    assert.match(String(unknown.body.message), /body\.filter\.property/);
  });

  test('sorts and cursors', async () => {
    const res = await query({ sorts: [{ property: 'Points', direction: 'descending' }], page_size: 1 });
    assert.equal(res.results[0].id, ids.two);
    const second = await query({ sorts: [{ property: 'Points', direction: 'descending' }], page_size: 1, start_cursor: res.next_cursor });
    assert.equal(second.results[0].id, ids.three);
    const third = await query({ sorts: [{ property: 'Points', direction: 'descending' }], page_size: 1, start_cursor: second.next_cursor });
    assert.equal(third.results[0].id, ids.one);
    assert.equal(third.has_more, false);
    assert.deepEqual(third.request_status, { type: 'complete' });
    const byTag = await query({
      sorts: [
        { property: 'Tag', direction: 'descending' },
        { property: 'Name', direction: 'ascending' },
      ],
    });
    assert.deepEqual(
      byTag.results.map((p: Json) => p.id),
      [ids.two, ids.one, ids.three],
    );
    const byDefault = await query({});
    assert.deepEqual(
      byDefault.results.map((p: Json) => p.id),
      [ids.one, ids.two, ids.three],
    );
  });

  test('the database query before 2025-09-03, and each endpoint refused where it does not exist', async () => {
    const old = await ok(
      server,
      fx,
      'POST',
      `/v1/databases/${databaseId}/query`,
      { filter: { property: 'Points', number: { greater_than: 1 } } },
      '2022-06-28',
    );
    assert.equal(old.type, 'page_or_database');
    assert.deepEqual(old.results.map((p: Json) => p.id).sort(), [ids.two, ids.three].sort());
    assert.equal(old.results[0].parent.type, 'database_id');
    const removed = await fails(server, fx, 'POST', `/v1/databases/${databaseId}/query`, {});
    assert.equal(removed.body.code, 'invalid_request_url');
    const early = await fails(server, fx, 'POST', `/v1/data_sources/${tasks}/query`, {}, '2022-06-28');
    assert.equal(early.body.code, 'invalid_request_url');
  });
});

/**
 * Views (FACTS.md §10.8) through the official SDK and raw HTTP: every view type created and read
 * back, PATCH merges, the last view kept, listing by database and by data source, errors,
 * capabilities, and unshared views answered as missing ones.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { createSource, type Json, type Source } from '../query/helpers.js';

const quiet = () => {};

async function rejects(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<void> {
  try {
    await promise;
    assert.fail(`expected ${code}`);
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), String(error));
    assert.equal(error.code, code, error.message);
    if (pattern) assert.match(error.message, pattern);
  }
}

const PROPERTIES = {
  Name: { title: {} },
  Status: { select: { options: [{ name: 'Open' }, { name: 'Done' }] } },
  Due: { date: {} },
  Points: { number: {} },
  Stage: { status: {} },
};

describe('views', () => {
  const { server, fx } = useServer();
  const client = () => new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });
  let source: Source;

  const setup = async () => {
    const page = await makeSharedPage(server, fx);
    source = await createSource(server, fx.token, page.id, 'Tasks', PROPERTIES);
    return source;
  };

  test('a new database has one table view, "Default view", of its data source', async () => {
    await setup();
    const list = await client().views.list({ database_id: source.databaseId });
    assert.equal(list.object, 'list');
    assert.equal(list.type, 'view');
    assert.equal(list.results.length, 1);
    const view = (await client().views.retrieve({ view_id: list.results[0].id })) as Json;
    assert.equal(view.object, 'view');
    assert.equal(view.name, 'Default view');
    assert.equal(view.type, 'table');
    assert.equal(view.data_source_id, source.id);
    assert.deepEqual(view.parent, { type: 'database_id', database_id: source.databaseId });
    assert.equal(view.filter, null);
    assert.equal(view.sorts, null);
    assert.equal(view.configuration, null);
  });

  test('every view type is created and read back with its configuration', async () => {
    await setup();
    const cases: Record<string, Json | undefined> = {
      table: { type: 'table', wrap_cells: true, frozen_column_index: 1, properties: [{ property_id: 'Points', visible: true, width: 120 }] },
      board: { type: 'board', group_by: { type: 'select', property_id: 'Status', sort: { type: 'manual' } }, card_layout: 'compact' },
      list: { type: 'list', properties: [{ property_id: 'Name' }] },
      calendar: { type: 'calendar', date_property_id: 'Due', view_range: 'week' },
      timeline: { type: 'timeline', date_property_id: 'Due', preference: { zoom_level: 'month' } },
      gallery: { type: 'gallery', cover: { type: 'page_cover' }, cover_size: 'large' },
      form: { type: 'form', is_form_closed: false, submission_permissions: 'reader' },
      chart: { type: 'chart', chart_type: 'donut', x_axis: { type: 'select', property_id: 'Status', sort: { type: 'ascending' } }, donut_labels: 'value' },
      map: { type: 'map', height: 'large' },
      dashboard: undefined,
    };
    for (const [type, configuration] of Object.entries(cases)) {
      const created = (await client().views.create({
        database_id: source.databaseId,
        data_source_id: source.id,
        name: `${type} view`,
        type: type as any,
        ...(configuration ? { configuration: configuration as any } : {}),
      })) as Json;
      assert.equal(created.type, type);
      assert.equal(created.name, `${type} view`);
      if (type === 'dashboard') {
        assert.equal(created.data_source_id, null);
        assert.deepEqual(created.configuration, { type: 'dashboard', rows: [] });
      } else {
        assert.equal(created.data_source_id, source.id);
        assert.deepEqual(created.configuration, configuration);
      }
      assert.deepEqual(await client().views.retrieve({ view_id: created.id }), created);
    }
    const list = await client().views.list({ database_id: source.databaseId, page_size: 4 });
    assert.equal(list.results.length, 4);
    assert.equal(list.has_more, true);
    const rest = await client().views.list({ database_id: source.databaseId, start_cursor: list.next_cursor!, page_size: 100 });
    assert.equal(list.results.length + rest.results.length, 11);
    assert.equal(rest.has_more, false);
  });

  test('configuration: the type must match, required fields per type, dashboards read-only', async () => {
    await setup();
    const base = { database_id: source.databaseId, data_source_id: source.id, name: 'v' };
    await rejects(
      client().views.create({ ...base, type: 'board', configuration: { type: 'table' } as any }),
      APIErrorCode.ValidationError,
      /configuration\.type/,
    );
    await rejects(
      client().views.create({ ...base, type: 'board', configuration: { type: 'board' } as any }),
      APIErrorCode.ValidationError,
      /configuration\.group_by/,
    );
    await rejects(
      client().views.create({ ...base, type: 'calendar', configuration: { type: 'calendar' } as any }),
      APIErrorCode.ValidationError,
      /date_property_id/,
    );
    await rejects(
      client().views.create({ ...base, type: 'timeline', configuration: { type: 'timeline' } as any }),
      APIErrorCode.ValidationError,
      /date_property_id/,
    );
    await rejects(client().views.create({ ...base, type: 'chart', configuration: { type: 'chart' } as any }), APIErrorCode.ValidationError, /chart_type/);
    await rejects(
      client().views.create({ ...base, type: 'dashboard', configuration: { type: 'dashboard', rows: [] } as any }),
      APIErrorCode.ValidationError,
      /read-only/,
    );
    await rejects(
      client().views.create({ ...base, type: 'calendar', configuration: { type: 'calendar', date_property_id: 'Nope' } as any }),
      APIErrorCode.ValidationError,
      /configuration\.date_property_id/,
    );
  });

  test('filter and sorts are checked as a data-source query checks them', async () => {
    await setup();
    const base = { database_id: source.databaseId, data_source_id: source.id, name: 'v', type: 'table' as const };
    await rejects(
      client().views.create({ ...base, filter: { property: 'Missing', checkbox: { equals: true } } as any }),
      APIErrorCode.ValidationError,
      /body\.filter\.property.*Missing/,
    );
    await rejects(client().views.create({ ...base, sorts: [{ property: 'Gone', direction: 'ascending' }] as any }), APIErrorCode.ValidationError, /Gone/);
    await rejects(client().views.create({ ...base, filter: { property: 'Points', select: { equals: 'x' } } as any }), APIErrorCode.ValidationError, /Points/);
    await rejects(client().views.create({ ...base, quick_filters: { Nope: {} } as any }), APIErrorCode.ValidationError, /quick_filters/);
    const view = (await client().views.create({
      ...base,
      filter: { property: 'Status', select: { does_not_equal: ['Done', 'Open'] } } as any,
      sorts: [{ timestamp: 'created_time', direction: 'descending' }] as any,
      quick_filters: { Status: { select: { equals: 'Open' } }, Points: {} } as any,
    })) as Json;
    assert.deepEqual(view.filter, { property: 'Status', select: { does_not_equal: ['Done', 'Open'] } });
    assert.deepEqual(view.sorts, [{ timestamp: 'created_time', direction: 'descending' }]);
    assert.deepEqual(view.quick_filters, { Status: { select: { equals: 'Open' } }, Points: {} });
  });

  test('PATCH merges quick filters and configuration, null clears filter and sorts', async () => {
    await setup();
    const view = (await client().views.create({
      database_id: source.databaseId,
      data_source_id: source.id,
      name: 'Board',
      type: 'board',
      filter: { property: 'Points', number: { greater_than: 1 } } as any,
      sorts: [{ property: 'Points', direction: 'ascending' }] as any,
      quick_filters: { Status: { select: { equals: 'Open' } }, Points: {} } as any,
      configuration: { type: 'board', group_by: { type: 'select', property_id: 'Status', sort: { type: 'manual' } }, card_layout: 'list', cover_size: 'small' },
    })) as Json;
    const updated = (await client().views.update({
      view_id: view.id,
      name: 'Renamed',
      quick_filters: { Points: null, Due: { date: { is_not_empty: true } } } as any,
      configuration: {
        type: 'board',
        group_by: { type: 'select', property_id: 'Status', sort: { type: 'descending' } },
        card_layout: 'compact',
        cover_size: null,
      },
    })) as Json;
    assert.equal(updated.name, 'Renamed');
    assert.deepEqual(updated.quick_filters, { Status: { select: { equals: 'Open' } }, Due: { date: { is_not_empty: true } } });
    assert.deepEqual(updated.configuration, {
      type: 'board',
      group_by: { type: 'select', property_id: 'Status', sort: { type: 'descending' } },
      card_layout: 'compact',
    });
    assert.deepEqual(updated.filter, view.filter);
    const cleared = (await client().views.update({ view_id: view.id, filter: null, sorts: null })) as Json;
    assert.equal(cleared.filter, null);
    assert.equal(cleared.sorts, null);
    assert.deepEqual(cleared.quick_filters, updated.quick_filters);
    const none = (await client().views.update({ view_id: view.id, quick_filters: null })) as Json;
    assert.equal(none.quick_filters, null);
    await rejects(client().views.update({ view_id: view.id, configuration: { type: 'board' } as any }), APIErrorCode.ValidationError, /group_by/);
    await rejects(client().views.update({ view_id: view.id, configuration: { type: 'table' } as any }), APIErrorCode.ValidationError, /configuration\.type/);
  });

  test('delete answers the partial view; the last view of a database cannot be deleted', async () => {
    await setup();
    const [only] = (await client().views.list({ database_id: source.databaseId })).results;
    await rejects(client().views.delete({ view_id: only.id }), APIErrorCode.ValidationError, /last view/);
    const second = (await client().views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'Second', type: 'list' })) as Json;
    const deleted = await client().views.delete({ view_id: only.id });
    assert.deepEqual(deleted, { object: 'view', id: only.id, parent: { type: 'database_id', database_id: source.databaseId }, type: 'table' });
    await rejects(client().views.retrieve({ view_id: only.id }), APIErrorCode.ObjectNotFound);
    await rejects(client().views.delete({ view_id: second.id }), APIErrorCode.ValidationError);
  });

  test('position orders tabs; listing by data source finds views of other databases', async () => {
    await setup();
    const [first] = (await client().views.list({ database_id: source.databaseId })).results;
    const atStart = (await client().views.create({
      database_id: source.databaseId,
      data_source_id: source.id,
      name: 'S',
      type: 'list',
      position: { type: 'start' },
    })) as Json;
    const atEnd = (await client().views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'E', type: 'list' })) as Json;
    const after = (await client().views.create({
      database_id: source.databaseId,
      data_source_id: source.id,
      name: 'A',
      type: 'list',
      position: { type: 'after_view', view_id: first.id },
    })) as Json;
    const ids = (await client().views.list({ database_id: source.databaseId })).results.map((v) => v.id);
    assert.deepEqual(ids, [atStart.id, first.id, after.id, atEnd.id]);

    const page = await makeSharedPage(server, fx, 'Other');
    const other = await createSource(server, fx.token, page.id, 'Other', { Name: { title: {} } });
    const linked = (await client().views.create({ database_id: other.databaseId, data_source_id: source.id, name: 'Linked', type: 'table' })) as Json;
    const bySource = (await client().views.list({ data_source_id: source.id })).results.map((v) => v.id).sort();
    assert.deepEqual(bySource, [...ids, linked.id].sort());
    const both = (await client().views.list({ database_id: other.databaseId, data_source_id: source.id })).results.map((v) => v.id);
    assert.deepEqual(both, [linked.id]);
  });

  test('dashboards hold widget views in rows of at most four', async () => {
    await setup();
    const dashboard = (await client().views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'Dash', type: 'dashboard' })) as Json;
    const widget = (await client().views.create({
      view_id: dashboard.id,
      data_source_id: source.id,
      name: 'W1',
      type: 'chart',
      configuration: { type: 'chart', chart_type: 'number' },
    })) as Json;
    assert.equal(widget.dashboard_view_id, dashboard.id);
    assert.deepEqual(widget.parent, { type: 'database_id', database_id: source.databaseId });
    for (let i = 2; i <= 4; i++) {
      await client().views.create({
        view_id: dashboard.id,
        data_source_id: source.id,
        name: `W${i}`,
        type: 'list',
        placement: { type: 'existing_row', row_index: 0 },
      });
    }
    await rejects(
      client().views.create({ view_id: dashboard.id, data_source_id: source.id, name: 'W5', type: 'list', placement: { type: 'existing_row', row_index: 0 } }),
      APIErrorCode.ValidationError,
      /placement\.row_index/,
    );
    await rejects(client().views.create({ view_id: dashboard.id, data_source_id: source.id, name: 'Nested', type: 'dashboard' }), APIErrorCode.ValidationError);
    let layout = ((await client().views.retrieve({ view_id: dashboard.id })) as Json).configuration;
    assert.equal(layout.rows.length, 1);
    assert.deepEqual(
      layout.rows[0].widgets.map((w: Json) => w.width),
      [3, 3, 3, 3],
    );
    await client().views.delete({ view_id: widget.id });
    layout = ((await client().views.retrieve({ view_id: dashboard.id })) as Json).configuration;
    assert.equal(layout.rows[0].widgets.length, 3);
    assert.ok(!layout.rows[0].widgets.some((w: Json) => w.view_id === widget.id));
    await rejects(
      client().views.update({ view_id: dashboard.id, sorts: [{ property: 'Points', direction: 'ascending' }] as any }),
      APIErrorCode.ValidationError,
      /body\.sorts/,
    );
    await rejects(
      client().views.create({
        database_id: source.databaseId,
        data_source_id: source.id,
        name: 'D',
        type: 'dashboard',
        filter: { property: 'Points', number: { equals: 1 } } as any,
      }),
      APIErrorCode.ValidationError,
      /body\.filter/,
    );
    await rejects(client().views.queries.create({ view_id: dashboard.id }), APIErrorCode.ValidationError);
    await rejects(
      client().views.update({ view_id: dashboard.id, configuration: { type: 'dashboard', rows: [] } as any }),
      APIErrorCode.ValidationError,
      /read-only/,
    );
  });

  test('request errors: no target, two targets, list without an id, a bad type', async () => {
    await setup();
    const res = await call<Json>(server.url, 'POST', '/v1/views', { token: fx.token, body: { data_source_id: source.id, name: 'x', type: 'table' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_error');
    assert.match(res.body.message, /exactly one of database_id, view_id, create_database/);
    const two = await call<Json>(server.url, 'POST', '/v1/views', {
      token: fx.token,
      body: { data_source_id: source.id, name: 'x', type: 'table', database_id: source.databaseId, view_id: source.databaseId },
    });
    assert.equal(two.status, 400);
    const list = await call<Json>(server.url, 'GET', '/v1/views', { token: fx.token });
    assert.equal(list.status, 400);
    assert.equal(list.body.code, 'validation_error');
    const badId = await call<Json>(server.url, 'GET', '/v1/views?database_id=nope', { token: fx.token });
    assert.equal(badId.status, 400);
    // FACTS.md §10.8: the Views API needs 2025-09-03 or later.
    for (const [method, path] of [
      ['GET', `/v1/views?database_id=${source.databaseId}`],
      ['POST', '/v1/views'],
    ] as const) {
      const old = await call<Json>(server.url, method, path, { token: fx.token, version: '2022-06-28', body: method === 'POST' ? {} : undefined });
      assert.equal(old.status, 400, `${method} ${path}`);
      assert.equal(old.body.code, 'invalid_request_url');
    }
    const badType = await call<Json>(server.url, 'POST', '/v1/views', {
      token: fx.token,
      body: { data_source_id: source.id, database_id: source.databaseId, name: 'x', type: 'spreadsheet' },
    });
    assert.equal(badType.status, 400);
    assert.match(badType.body.message, /body\.type/);
  });

  test('create_database makes a linked database on the page, after the block named', async () => {
    await setup();
    const page = await makeSharedPage(server, fx, 'Host');
    const { results: blocks } = await client().blocks.children.append({
      block_id: page.id,
      children: [{ paragraph: { rich_text: [{ text: { content: 'one' } }] } }, { paragraph: { rich_text: [{ text: { content: 'two' } }] } }],
    });
    const view = (await client().views.create({
      data_source_id: source.id,
      name: 'Linked board',
      type: 'board',
      configuration: { type: 'board', group_by: { type: 'select', property_id: 'Status', sort: { type: 'manual' } } },
      create_database: { parent: { type: 'page_id', page_id: page.id }, position: { type: 'after_block', block_id: blocks[0].id } },
    })) as Json;
    assert.equal(view.data_source_id, source.id);
    const databaseId = view.parent.database_id;
    assert.notEqual(databaseId, source.databaseId);
    const children = (await client().blocks.children.list({ block_id: page.id })).results as Json[];
    assert.deepEqual(
      children.map((b) => b.type),
      ['paragraph', 'child_database', 'paragraph'],
    );
    assert.equal(children[1].id, databaseId);
    const database = (await client().databases.retrieve({ database_id: databaseId })) as Json;
    assert.equal(database.is_inline, true);
    assert.deepEqual(
      (await client().views.list({ database_id: databaseId })).results.map((v) => v.id),
      [view.id],
    );
    await rejects(
      client().views.create({
        data_source_id: source.id,
        name: 'x',
        type: 'table',
        create_database: { parent: { type: 'page_id', page_id: page.id }, position: { type: 'after_block', block_id: source.databaseId } },
      }),
      APIErrorCode.ValidationError,
      /create_database\.position\.block_id/,
    );
  });

  test('capabilities, and a view of an unshared database is indistinguishable from a missing one', async () => {
    await setup();
    const [view] = (await client().views.list({ database_id: source.databaseId })).results;
    const readOnly = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${readOnly.id}/grants`, { object_id: source.databaseId });
    const reader = new Client({ auth: readOnly.token, baseUrl: server.url, logger: quiet });
    assert.equal(((await reader.views.retrieve({ view_id: view.id })) as Json).id, view.id);
    await rejects(
      reader.views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'x', type: 'table' }),
      APIErrorCode.RestrictedResource,
    );
    await rejects(reader.views.update({ view_id: view.id, name: 'x' }), APIErrorCode.RestrictedResource);
    await rejects(reader.views.delete({ view_id: view.id }), APIErrorCode.RestrictedResource);

    const insertOnly = await addConnection(server, fx.workspaceId, ['insert_content']);
    await admin(server, 'POST', `/connections/${insertOnly.id}/grants`, { object_id: source.databaseId });
    const inserter = new Client({ auth: insertOnly.token, baseUrl: server.url, logger: quiet });
    const partial = (await inserter.views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'x', type: 'list' })) as Json;
    assert.deepEqual(Object.keys(partial).sort(), ['id', 'object', 'parent', 'type']);
    await rejects(inserter.views.retrieve({ view_id: view.id }), APIErrorCode.RestrictedResource);

    const stranger = await addConnection(server, fx.workspaceId, ['read_content', 'update_content', 'insert_content']);
    const outsider = new Client({ auth: stranger.token, baseUrl: server.url, logger: quiet });
    const missing = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';
    for (const id of [view.id, missing]) {
      const res = await call<Json>(server.url, 'GET', `/v1/views/${id}`, { token: stranger.token });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'object_not_found');
      assert.equal(res.body.message, `Could not find view with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`);
    }
    await rejects(outsider.views.update({ view_id: view.id, name: 'x' }), APIErrorCode.ObjectNotFound);
    await rejects(outsider.views.delete({ view_id: view.id }), APIErrorCode.ObjectNotFound);
    await rejects(outsider.views.list({ database_id: source.databaseId }), APIErrorCode.ObjectNotFound);
    await rejects(outsider.views.queries.create({ view_id: view.id }), APIErrorCode.ObjectNotFound);
  });
});

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { everyTypeSchema, expectValidation, fails, ok, text } from './helpers.js';

type Json = Record<string, any>;

describe('pages', () => {
  const { server, fx } = useServer();
  let root: Json;
  let taskSource: string;
  let source: Json;
  let tasks: Json[];
  before(async () => {
    root = await makeSharedPage(server, fx);
    const taskDb = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Tasks'),
      initial_data_source: { properties: { Task: { title: {} }, Points: { number: {} } } },
    });
    taskSource = taskDb.data_sources[0].id;
    tasks = [];
    for (let i = 0; i < 30; i++) {
      tasks.push(
        await ok(server, fx, 'POST', '/v1/pages', {
          parent: { data_source_id: taskSource },
          properties: { Task: { title: text(`t${i}`) }, Points: { number: i } },
        }),
      );
    }
    const projects = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Projects'),
      initial_data_source: { properties: everyTypeSchema(taskSource) },
    });
    source = await ok(server, fx, 'GET', `/v1/data_sources/${projects.data_sources[0].id}`);
  });

  const fullValues = () => ({
    Name: { title: text('Everything') },
    Notes: { rich_text: [...text('bold '), { type: 'text', text: { content: 'link', link: { url: 'https://example.com' } }, annotations: { bold: true } }] },
    Price: { number: 12.5 },
    Kind: { select: { name: 'A' } },
    Tags: { multi_select: [{ name: 'x' }, { name: 'new-tag' }] },
    Stage: { status: { name: 'In progress' } },
    Due: { date: { start: '2024-05-01', end: '2024-05-03' } },
    Owners: { people: [{ object: 'user', id: fx.user.id }] },
    Attachments: { files: [{ name: 'spec.pdf', external: { url: 'https://example.com/spec.pdf' } }] },
    Done: { checkbox: true },
    Site: { url: 'https://example.com' },
    Mail: { email: 'a@example.com' },
    Phone: { phone_number: '+1 555 0100' },
    Tasks: { relation: [{ id: tasks[0].id }, { id: tasks[1].id }] },
    Verified: { verification: { state: 'verified' } },
  });

  test('a page with a value of every type reads back as written, computed values computed', async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source.id }, properties: fullValues() });
    assert.deepEqual(page.parent, { type: 'data_source_id', data_source_id: source.id, database_id: source.parent.database_id });
    const p = (await ok(server, fx, 'GET', `/v1/pages/${page.id}`)).properties;
    assert.equal(Object.keys(p).length, 22);
    assert.equal(p.Name.title[0].plain_text, 'Everything');
    assert.equal(p.Notes.rich_text[1].href, 'https://example.com');
    assert.equal(p.Notes.rich_text[1].annotations.bold, true);
    assert.equal(p.Price.number, 12.5);
    assert.equal(p.Kind.select.name, 'A');
    assert.equal(p.Kind.select.color, 'red');
    assert.deepEqual(
      p.Tags.multi_select.map((o: Json) => o.name),
      ['x', 'new-tag'],
    );
    assert.equal(p.Stage.status.name, 'In progress');
    assert.deepEqual(p.Due.date, { start: '2024-05-01', end: '2024-05-03', time_zone: null });
    assert.deepEqual(p.Owners.people, [{ object: 'user', id: fx.user.id }]);
    assert.deepEqual(p.Attachments.files, [{ name: 'spec.pdf', type: 'external', external: { url: 'https://example.com/spec.pdf' } }]);
    assert.equal(p.Done.checkbox, true);
    assert.equal(p.Site.url, 'https://example.com');
    assert.equal(p.Mail.email, 'a@example.com');
    assert.equal(p.Phone.phone_number, '+1 555 0100');
    assert.deepEqual(p.Tasks.relation, [{ id: tasks[0].id }, { id: tasks[1].id }]);
    assert.equal(p.Tasks.has_more, false);
    assert.equal(p.Verified.verification.state, 'verified');
    assert.deepEqual(p.Verified.verification.verified_by, { object: 'user', id: fx.connection.bot_id });
    assert.deepEqual(p.Double.formula, { type: 'number', number: 25 });
    assert.deepEqual(p.Points.rollup, { type: 'number', number: 1, function: 'sum' });
    assert.equal(p.Created.created_time, page.created_time);
    assert.match(p.Created.created_time, /:00\.000Z$/);
    assert.deepEqual(p.Creator.created_by, { object: 'user', id: fx.connection.bot_id });
    assert.equal(p.Edited.last_edited_time, page.last_edited_time);
    assert.deepEqual(p.Editor.last_edited_by, { object: 'user', id: fx.connection.bot_id });
    assert.equal(p.Ref.unique_id.prefix, 'REF');
    assert.equal(typeof p.Ref.unique_id.number, 'number');
    // The unknown multi_select name became an option.
    const schema = await ok(server, fx, 'GET', `/v1/data_sources/${source.id}`);
    assert.ok(schema.properties.Tags.multi_select.options.some((o: Json) => o.name === 'new-tag'));
  });

  test('values of the wrong type or shape are validation errors naming the property', async () => {
    const cases: [Json, string][] = [
      [{ Price: { number: '12' } }, 'body.properties.Price.number'],
      [{ Price: { rich_text: [] } }, 'body.properties.Price'],
      [{ Done: { checkbox: 'yes' } }, 'body.properties.Done.checkbox'],
      [{ Kind: { select: { id: 'nope' } } }, 'body.properties.Kind.select.id'],
      [{ Kind: { select: { name: 'a,b' } } }, 'body.properties.Kind.select.name'],
      [{ Stage: { status: { name: 'Unknown status' } } }, 'body.properties.Stage.status.name'],
      [{ Due: { date: { start: 'tomorrow' } } }, 'body.properties.Due.date.start'],
      [{ Due: { date: { start: '2024-02-30' } } }, 'body.properties.Due.date.start'],
      [{ Due: { date: { start: '2024-02-01', time_zone: 'Mars/Base' } } }, 'body.properties.Due.date.time_zone'],
      [{ Owners: { people: [{ id: '5e9e4a37-66f4-4e39-b6d8-000000000000' }] } }, 'body.properties.Owners.people[0].id'],
      [{ Tasks: { relation: [{ id: root.id }] } }, 'body.properties.Tasks.relation[0].id'],
      [{ Tasks: { relation: [{ id: 'x' }] } }, 'body.properties.Tasks.relation[0].id'],
      [{ Site: { url: 'x'.repeat(2001) } }, 'body.properties.Site.url'],
      [{ Mail: { email: 'x'.repeat(201) } }, 'body.properties.Mail.email'],
      [{ Double: { formula: { string: 'x' } } }, 'body.properties.Double'],
      [{ Points: { rollup: {} } }, 'body.properties.Points'],
      [{ Created: { created_time: '2024-01-01' } }, 'body.properties.Created'],
      [{ Ref: { unique_id: { number: 3 } } }, 'body.properties.Ref'],
      [{ Nope: { checkbox: true } }, 'body.properties.Nope'],
      [{ Notes: { rich_text: [{ text: { content: 'x'.repeat(2001) } }] } }, 'body.properties.Notes.rich_text[0].text.content'],
      [{ Tags: { multi_select: Array.from({ length: 101 }, (_, i) => ({ name: `o${i}` })) } }, 'body.properties.Tags.multi_select'],
      [{ Name: 'plain' }, 'body.properties.Name'],
    ];
    for (const [properties, field] of cases) {
      expectValidation(await fails(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source.id }, properties }), field);
    }
  });

  test('parents: page, database, data source and workspace; children become blocks', async () => {
    const child = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { page_id: root.id },
      properties: { title: { title: text('Child') } },
      icon: { emoji: '🎯' },
      cover: { external: { url: 'https://example.com/cover.jpg' } },
      children: [{ paragraph: { rich_text: text('hello') } }, { to_do: { rich_text: text('do'), checked: true } }],
    });
    assert.deepEqual(child.parent, { type: 'page_id', page_id: root.id });
    assert.deepEqual(child.icon, { type: 'emoji', emoji: '🎯' });
    assert.deepEqual(Object.keys(child.properties), ['title']);
    const blocks = await ok(server, fx, 'GET', `/v1/blocks/${child.id}/children`);
    assert.deepEqual(
      blocks.results.map((b: Json) => b.type),
      ['paragraph', 'to_do'],
    );
    const viaDatabase = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { database_id: source.parent.database_id },
      properties: { Name: { title: text('db parent') } },
    });
    assert.equal(viaDatabase.parent.data_source_id, source.id);
    const top = await ok(server, fx, 'POST', '/v1/pages', { parent: { workspace: true }, properties: { title: { title: text('Top') } } });
    assert.deepEqual(top.parent, { type: 'workspace', workspace: true });
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${top.id}`)).id, top.id);
    expectValidation(
      await fails(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { Other: { title: [] } } }),
      'body.properties.Other',
    );
    const missing = await fails(server, fx, 'POST', '/v1/pages', { parent: { page_id: '5e9e4a37-66f4-4e39-b6d8-000000000000' } });
    assert.equal(missing.status, 404);
    expectValidation(
      await fails(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, children: [{ paragraph: { rich_text: 5 } }] }),
      'body.children[0].paragraph.rich_text',
    );
  });

  test('a page shows 25 references; the property item endpoint pages through all', async () => {
    const many = tasks.map((t) => ({ id: t.id }));
    const page = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: source.id },
      properties: {
        Name: { title: Array.from({ length: 30 }, (_, i) => ({ text: { content: `w${i} ` } })) },
        Tasks: { relation: many },
      },
    });
    assert.equal(page.properties.Tasks.relation.length, 25);
    assert.equal(page.properties.Tasks.has_more, true);
    assert.equal(page.properties.Name.title.length, 25);
    const id = page.properties.Tasks.id;
    const first = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${id}?page_size=20`);
    assert.equal(first.object, 'list');
    assert.equal(first.type, 'property_item');
    assert.equal(first.property_item.type, 'relation');
    assert.equal(first.results.length, 20);
    assert.deepEqual(first.results[0], { object: 'property_item', id, type: 'relation', relation: { id: tasks[0].id } });
    assert.equal(first.has_more, true);
    assert.ok(first.property_item.next_url.includes('start_cursor='));
    const second = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${id}?page_size=20&start_cursor=${first.next_cursor}`);
    assert.equal(second.results.length, 10);
    assert.equal(second.next_cursor, null);
    const title = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/title`);
    assert.equal(title.results.length, 30);
    const number = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${source.properties.Price.id}`);
    assert.deepEqual(number, { object: 'property_item', id: source.properties.Price.id, type: 'number', number: null });
    const rollup = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${source.properties.Points.id}`);
    assert.equal(rollup.property_item.rollup.number, 435);
    const created = await ok(server, fx, 'GET', `/v1/pages/${page.id}/properties/${source.properties.Created.id}`);
    assert.equal(created.created_time, page.created_time);
    assert.equal((await fails(server, fx, 'GET', `/v1/pages/${page.id}/properties/nope`)).status, 404);
    expectValidation(await fails(server, fx, 'GET', `/v1/pages/${page.id}/properties/title?start_cursor=abc`), 'start_cursor');
  });

  test('filter_properties limits the properties returned', async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source.id }, properties: { Name: { title: text('f') } } });
    const priceId = source.properties.Price.id;
    const res = await ok(server, fx, 'GET', `/v1/pages/${page.id}?filter_properties=${priceId}&filter_properties=title`);
    assert.deepEqual(Object.keys(res.properties).sort(), ['Name', 'Price']);
    const single = await ok(server, fx, 'GET', `/v1/pages/${page.id}?filter_properties=${priceId}`);
    assert.deepEqual(Object.keys(single.properties), ['Price']);
  });

  test('updates: properties, icon, cover, clearing values; edit time and author', async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: source.id }, properties: fullValues() });
    const other = await addConnection(server, fx.workspaceId, ['read_content', 'update_content']);
    await admin(server, 'POST', `/connections/${other.id}/grants`, { object_id: root.id });
    const res = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}`, {
      token: other.token,
      body: {
        properties: {
          Price: { number: null },
          Kind: { select: null },
          Tags: { multi_select: [] },
          Due: { date: null },
          Site: { url: '' },
          Done: { checkbox: false },
        },
        icon: { external: { url: 'https://example.com/i.png' } },
        cover: null,
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body.properties;
    assert.equal(p.Price.number, null);
    assert.equal(p.Kind.select, null);
    assert.deepEqual(p.Tags.multi_select, []);
    assert.equal(p.Due.date, null);
    assert.equal(p.Site.url, null);
    assert.equal(p.Done.checkbox, false);
    assert.deepEqual(p.Double.formula, { type: 'number', number: null });
    assert.deepEqual(res.body.icon, { type: 'external', external: { url: 'https://example.com/i.png' } });
    assert.equal(res.body.cover, null);
    assert.deepEqual(res.body.last_edited_by, { object: 'user', id: other.bot_id });
    assert.deepEqual(p.Editor.last_edited_by, { object: 'user', id: other.bot_id });
    assert.deepEqual(res.body.created_by, { object: 'user', id: fx.connection.bot_id });
    assert.equal(p.Name.title[0].plain_text, 'Everything');
  });

  test('trash: descendants go and come back with the page; edits of trashed pages are refused', async () => {
    const parent = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('Parent') } } });
    const child = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: parent.id }, properties: { title: { title: text('Child') } } });
    const grandchild = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: child.id }, properties: { title: { title: text('Grandchild') } } });
    const trashed = await ok(server, fx, 'PATCH', `/v1/pages/${parent.id}`, { in_trash: true });
    assert.equal(trashed.in_trash, true);
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${grandchild.id}`)).in_trash, true);
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${parent.id}`, { properties: { title: { title: text('x') } } }), 'archived');
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${parent.id}`, { in_trash: true }), 'archived');
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${grandchild.id}`, { icon: { emoji: '🙂' } }), 'archived');
    expectValidation(await fails(server, fx, 'POST', '/v1/pages', { parent: { page_id: child.id } }), 'archived');
    const restored = await ok(server, fx, 'PATCH', `/v1/pages/${parent.id}`, { in_trash: false, properties: { title: { title: text('Back') } } });
    assert.equal(restored.in_trash, false);
    assert.equal(restored.properties.title.title[0].plain_text, 'Back');
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${grandchild.id}`)).in_trash, false);
    // No permanent deletion: a trashed page is still there to read.
    await ok(server, fx, 'PATCH', `/v1/pages/${child.id}`, { in_trash: true });
    assert.equal((await ok(server, fx, 'GET', `/v1/pages/${child.id}`)).in_trash, true);
  });

  test('a locked page refuses edits until unlocked', async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('Lock') } } });
    assert.equal((await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { is_locked: true })).is_locked, true);
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${page.id}`, { properties: { title: { title: text('x') } } }), 'locked');
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${page.id}`, { icon: { emoji: '🙂' } }), 'locked');
    const unlocked = await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { is_locked: false, icon: { emoji: '🙂' } });
    assert.equal(unlocked.is_locked, false);
    assert.deepEqual(unlocked.icon, { type: 'emoji', emoji: '🙂' });
  });

  test('archived is refused at the newest version and an alias before it', async () => {
    const page = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('Arch') } } });
    expectValidation(await fails(server, fx, 'PATCH', `/v1/pages/${page.id}`, { archived: true }), 'body.archived');
    const old = await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { archived: true }, '2025-09-03');
    assert.equal(old.archived, true);
    assert.equal(old.in_trash, true);
    assert.equal((await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { archived: false }, '2022-06-28')).archived, false);
  });

  test('capabilities and sharing', async () => {
    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${reader.id}/grants`, { object_id: root.id });
    assert.equal((await call(server.url, 'PATCH', `/v1/pages/${root.id}`, { token: reader.token, body: {} })).status, 403);
    assert.equal((await call(server.url, 'POST', '/v1/pages', { token: reader.token, body: { parent: { page_id: root.id } } })).status, 403);
    const stranger = await addConnection(server, fx.workspaceId, ['read_content', 'update_content']);
    const res = await call<Json>(server.url, 'GET', `/v1/pages/${root.id}`, { token: stranger.token });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'object_not_found');
    assert.equal((await call(server.url, 'GET', `/v1/pages/not-an-id`, { token: fx.token })).status, 400);
  });
});

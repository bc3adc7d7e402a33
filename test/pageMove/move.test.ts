/**
 * POST /v1/pages/{id}/move through the official SDK (`pages.move`): the page lands under a page
 * or in a data source, and what depends on its place follows it (the parent it shows, search
 * scope, sharing through the new parent, data source queries, values carried by name and type);
 * every documented refusal answers as FACTS.md §10.3 lists it; unshared is missing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { useStore } from '../helpers/useStore.js';

const quiet = () => {};
type Json = Record<string, any>;

async function refusal(promise: Promise<unknown>): Promise<APIResponseError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), String(error));
    return error;
  }
  assert.fail('the call should have been refused');
}

describe('page move', () => {
  const { server, fx } = useServer();
  const store = useStore(server);
  const notion = () => new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });

  async function child(parentId: string, title: string): Promise<Json> {
    return notion().pages.create({ parent: { page_id: parentId }, properties: { title: { title: [{ text: { content: title } }] } } });
  }

  async function dataSource(parentId: string, properties: Json): Promise<string> {
    const db = (await notion().databases.create({ parent: { type: 'page_id', page_id: parentId }, initial_data_source: { properties } } as any)) as Json;
    return db.data_sources[0].id;
  }

  test('moves a page with its subtree under another page; search and ancestry follow', async () => {
    const root = await makeSharedPage(server, fx, 'Root');
    const a = await child(root.id, 'Folder A');
    const b = await child(root.id, 'Folder B');
    const moving = await child(a.id, 'Wandering page');
    const below = await child(moving.id, 'Below the wanderer');
    const moved = (await notion().pages.move({ page_id: moving.id, parent: { page_id: b.id } })) as Json;
    assert.equal(moved.object, 'page');
    assert.deepEqual(moved.parent, { type: 'page_id', page_id: b.id });
    assert.deepEqual(((await notion().pages.retrieve({ page_id: below.id })) as Json).parent, { type: 'page_id', page_id: moving.id });
    const listed = async (id: string) => (await notion().blocks.children.list({ block_id: id })).results.map((r) => r.id);
    assert.deepEqual(await listed(a.id), []);
    assert.deepEqual(await listed(b.id), [moving.id]);
    // The closure table: the moved subtree hangs under B, and nothing of it under A any more.
    const ancestors = await store.db
      .selectFrom('object_ancestors')
      .select(['ancestor_id', 'depth'])
      .where('descendant_id', '=', below.id)
      .orderBy('depth')
      .execute();
    assert.deepEqual(
      ancestors.map((r) => [r.ancestor_id, Number(r.depth)]),
      [
        [below.id, 0],
        [moving.id, 1],
        [b.id, 2],
        [root.id, 3],
      ],
    );
    const underA = await store.db.selectFrom('object_ancestors').select('descendant_id').where('ancestor_id', '=', a.id).execute();
    assert.deepEqual(
      underA.map((r) => r.descendant_id),
      [a.id],
    );

    // A connection shared with B only now sees the moved page and its child, and one shared with A no longer does.
    const viaB = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${viaB.id}/grants`, { object_id: b.id });
    const viaA = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${viaA.id}/grants`, { object_id: a.id });
    const search = async (token: string) =>
      (await new Client({ auth: token, baseUrl: server.url, logger: quiet }).search({ query: 'wander' })).results.map((r) => r.id).sort();
    assert.deepEqual(await search(viaB.token), [moving.id, below.id].sort());
    assert.deepEqual(await search(viaA.token), []);
    const read = await call(server.url, 'GET', `/v1/pages/${below.id}`, { token: viaA.token });
    assert.equal(read.status, 404);
  });

  test('into a data source and between data sources: values kept by name and type, queries follow', async () => {
    const root = await makeSharedPage(server, fx, 'Tables');
    const first = await dataSource(root.id, {
      Name: { title: {} },
      Notes: { rich_text: {} },
      Size: { number: {} },
      Kind: { select: { options: [{ name: 'big' }] } },
      Gone: { checkbox: {} },
    });
    const second = await dataSource(root.id, {
      Label: { title: {} },
      Notes: { rich_text: {} },
      Size: { rich_text: {} },
      Kind: { select: { options: [{ name: 'small' }] } },
      Ref: { unique_id: { prefix: 'T' } },
    });
    const loose = await child(root.id, 'Loose page');
    const inFirst = (await notion().pages.move({ page_id: loose.id, parent: { data_source_id: first } })) as Json;
    assert.equal(inFirst.parent.data_source_id, first);
    assert.equal(inFirst.properties.Name.title[0].plain_text, 'Loose page');
    assert.deepEqual(inFirst.properties.Notes.rich_text, []);
    assert.equal(inFirst.properties.Gone.checkbox, false);
    await notion().pages.update({
      page_id: loose.id,
      properties: { Notes: { rich_text: [{ text: { content: 'kept' } }] }, Size: { number: 7 }, Kind: { select: { name: 'big' } }, Gone: { checkbox: true } },
    });
    const queried = async (id: string, filter?: Json) => (await notion().dataSources.query({ data_source_id: id, filter } as any)).results.map((r) => r.id);
    assert.deepEqual(await queried(first, { property: 'Size', number: { equals: 7 } }), [loose.id]);

    const inSecond = (await notion().pages.move({ page_id: loose.id, parent: { type: 'data_source_id', data_source_id: second } })) as Json;
    assert.equal(inSecond.parent.data_source_id, second);
    assert.equal(inSecond.properties.Label.title[0].plain_text, 'Loose page');
    assert.equal(inSecond.properties.Notes.rich_text[0].plain_text, 'kept');
    assert.deepEqual(inSecond.properties.Size.rich_text, [], 'a property of another type starts empty');
    assert.equal(inSecond.properties.Kind.select.name, 'big', 'a select keeps its option by name');
    assert.equal(inSecond.properties.Ref.unique_id.number, 1);
    assert.equal(inSecond.properties.Gone, undefined);
    assert.deepEqual(await queried(first), []);
    assert.deepEqual(await queried(second, { property: 'Notes', rich_text: { equals: 'kept' } }), [loose.id]);
    assert.deepEqual(await queried(second, { property: 'Kind', select: { equals: 'big' } }), [loose.id]);

    const out = (await notion().pages.move({ page_id: loose.id, parent: { page_id: root.id } })) as Json;
    assert.deepEqual(Object.keys(out.properties), ['title']);
    assert.equal(out.properties.title.title[0].plain_text, 'Loose page');
    assert.deepEqual(await queried(second), []);
    const found = (await notion().search({ query: 'Loose page' })).results.map((r) => r.id);
    assert.deepEqual(found, [loose.id]);
  });

  test('a dual relation lets go of a page that moves to another data source', async () => {
    const root = await makeSharedPage(server, fx, 'Relations');
    const people = await dataSource(root.id, { Name: { title: {} } });
    const tasks = await dataSource(root.id, {
      Name: { title: {} },
      Owner: { relation: { data_source_id: people, type: 'dual_property', dual_property: {} } },
    });
    const archive = await dataSource(root.id, { Name: { title: {} } });
    const ada = (await notion().pages.create({ parent: { data_source_id: people }, properties: { Name: { title: [{ text: { content: 'Ada' } }] } } })) as Json;
    const task = (await notion().pages.create({
      parent: { data_source_id: tasks },
      properties: { Name: { title: [{ text: { content: 'Task' } }] }, Owner: { relation: [{ id: ada.id }] } },
    })) as Json;
    const synced = () => notion().pages.retrieve({ page_id: ada.id }) as Promise<Json>;
    const relationOf = (page: Json) => (Object.values(page.properties) as Json[]).find((p) => p.type === 'relation')!.relation.map((r: Json) => r.id);
    assert.deepEqual(relationOf(await synced()), [task.id]);
    await notion().pages.move({ page_id: task.id, parent: { data_source_id: archive } });
    assert.deepEqual(relationOf(await synced()), []);
  });

  test('refusals, word for word', async () => {
    const root = await makeSharedPage(server, fx, 'Refusals');
    const page = await child(root.id, 'Mover');
    const inner = await child(page.id, 'Inner');
    const elsewhere = await child(root.id, 'Elsewhere');
    const move = (page_id: string, parent: Json) => refusal(notion().pages.move({ page_id, parent } as any));

    let e = await move(page.id, { page_id: root.id });
    assert.deepEqual([e.status, e.code, e.message], [400, 'validation_error', 'New parent must be different from the current parent']);
    e = await move(page.id, { page_id: page.id });
    assert.deepEqual([e.status, e.message], [400, `Parent ID must be different from the child ID: ${page.id}`]);
    e = await move(page.id, { page_id: inner.id });
    assert.deepEqual([e.status, e.message], [400, `New parent ${inner.id} cannot be under the hierarchy of child ${page.id}`]);

    const missing = '0f0e0d0c-0b0a-4998-8776-655443322110';
    e = await move(missing, { page_id: root.id });
    assert.equal(e.status, 404);
    assert.equal(e.code, 'object_not_found');
    assert.match(e.message, new RegExp(`^Could not find page with ID: ${missing}`));
    e = await move(page.id, { page_id: missing });
    assert.deepEqual([e.status, e.code], [404, 'object_not_found']);
    assert.ok(e.message.includes(missing));
    e = await move(page.id, { data_source_id: missing });
    assert.deepEqual([e.status, e.code], [404, 'object_not_found']);

    // A block that is not a page cannot be a parent; a database cannot be moved this way.
    const { results } = await notion().blocks.children.append({ block_id: root.id, children: [{ paragraph: { rich_text: [] } }] });
    e = await move(page.id, { page_id: results[0].id });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    assert.match(e.message, /parent\.page_id/);
    const database = (await notion().databases.create({
      parent: { type: 'page_id', page_id: root.id },
      initial_data_source: { properties: {} },
    } as any)) as Json;
    e = await move(database.id, { page_id: elsewhere.id });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    e = await move(page.id, { page_id: database.id });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);

    await notion().pages.update({ page_id: page.id, in_trash: true });
    e = await move(page.id, { page_id: elsewhere.id });
    assert.deepEqual([e.status, e.message], [400, `Object ${page.id} is in trash and cannot be moved`]);
    e = await move(inner.id, { page_id: elsewhere.id });
    assert.deepEqual([e.status, e.message], [400, `Object ${inner.id} is in trash and cannot be moved`]);

    const bad = await call<Json>(server.url, 'POST', `/v1/pages/${elsewhere.id}/move`, { token: fx.token, body: { parent: { database_id: root.id } } });
    assert.deepEqual([bad.status, bad.body.code], [400, 'validation_error']);
  });

  test('unshared, another workspace and a missing capability', async () => {
    const root = await makeSharedPage(server, fx, 'Shared root');
    const page = await child(root.id, 'Mine');
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
    const other = await makeWorkspace(server);
    const foreign = await makeSharedPage(server, other, 'Foreign');
    for (const parent of [hidden.id, foreign.id]) {
      const e = await refusal(notion().pages.move({ page_id: page.id, parent: { page_id: parent } }));
      assert.deepEqual([e.status, e.code], [404, 'object_not_found']);
      assert.ok(e.message.includes(parent));
    }
    for (const id of [hidden.id, foreign.id]) {
      const e = await refusal(notion().pages.move({ page_id: id, parent: { page_id: root.id } }));
      assert.deepEqual([e.status, e.code], [404, 'object_not_found']);
    }
    const reader = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content']);
    await admin(server, 'POST', `/connections/${reader.id}/grants`, { object_id: root.id });
    const res = await call<Json>(server.url, 'POST', `/v1/pages/${page.id}/move`, { token: reader.token, body: { parent: { page_id: root.id } } });
    assert.deepEqual([res.status, res.body.code], [403, 'restricted_resource']);
  });
});

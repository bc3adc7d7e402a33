/**
 * Data-source templates (FACTS.md §10.4): the operator marks pages of a data source as templates
 * (admin plane); `dataSources.listTemplates` lists them (case-insensitive name filter, pages);
 * `pages.create({template})` and `pages.update({template, erase_content})` apply one in the
 * background — the page comes back blank apart from the given properties, then the template's
 * values fill what is empty and its content is copied, placeholders filled — and every refusal
 * is the documented 400. A job enqueued by one server is applied by the next (restart).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addConnection, admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { call } from '../helpers/http.js';

const quiet = () => {};
type Json = Record<string, any>;
const text = (content: string) => [{ type: 'text' as const, text: { content } }];

async function refusal(promise: Promise<unknown>): Promise<APIResponseError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), String(error));
    return error;
  }
  assert.fail('the call should have been refused');
}

/** The page's children once the template job wrote them (the service applies templates asynchronously). */
async function childrenWhenApplied(notion: Client, pageId: string, atLeast = 1): Promise<Json[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { results } = await notion.blocks.children.list({ block_id: pageId });
    if (results.length >= atLeast) return results as Json[];
    if (Date.now() > deadline) assert.fail(`the template was not applied to ${pageId}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Setup {
  root: Json;
  source: string;
  task: Json;
  bug: Json;
}

async function setUp(server: TestServer, fx: Fixture, notion: Client): Promise<Setup> {
  const root = await makeSharedPage(server, fx, 'Templates home');
  const database = (await notion.databases.create({
    parent: { type: 'page_id', page_id: root.id },
    title: text('Tasks'),
    initial_data_source: {
      properties: {
        Name: { title: {} },
        Notes: { rich_text: {} },
        State: { select: { options: [{ name: 'open' }, { name: 'closed' }] } },
        Count: { number: {} },
      },
    },
  } as any)) as Json;
  const source = database.data_sources[0].id;
  const task = (await notion.pages.create({
    parent: { data_source_id: source },
    properties: {
      Name: { title: text('Task template') },
      Notes: { rich_text: text('from the template') },
      State: { select: { name: 'open' } },
      Count: { number: 99 },
    },
    children: [
      { heading_2: { rich_text: text('Checklist') } },
      {
        paragraph: {
          rich_text: [
            { type: 'text', text: { content: 'Opened ' } },
            { type: 'mention', mention: { type: 'template_mention', template_mention: { type: 'template_mention_date', template_mention_date: 'today' } } },
            { type: 'text', text: { content: ' by ' } },
            { type: 'mention', mention: { type: 'template_mention', template_mention: { type: 'template_mention_user', template_mention_user: 'me' } } },
          ],
        },
      },
      { to_do: { rich_text: text('first step'), checked: false, children: [{ paragraph: { rich_text: text('nested detail') } }] } },
    ] as any,
  })) as Json;
  const bug = (await notion.pages.create({ parent: { data_source_id: source }, properties: { Name: { title: text('Bug REPORT') } } })) as Json;
  return { root, source, task, bug };
}

describe('data-source templates', () => {
  const { server, fx } = useServer();
  const notion = (token = fx.token) => new Client({ auth: token, baseUrl: server.url, logger: quiet });
  const adminCall = (method: string, path: string, body?: unknown) =>
    call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });

  test('the operator marks templates; listTemplates filters by name and pages', async () => {
    const { source, task, bug } = await setUp(server, fx, notion());
    assert.deepEqual(await notion().dataSources.listTemplates({ data_source_id: source }), { templates: [], has_more: false, next_cursor: null });
    const marked = await admin(server, 'POST', `/data_sources/${source}/templates`, { page_id: task.id, is_default: true });
    assert.deepEqual(marked, { id: task.id, name: 'Task template', is_default: true });
    await admin(server, 'POST', `/data_sources/${source}/templates`, { page_id: bug.id.replace(/-/g, '') });

    const all = await notion().dataSources.listTemplates({ data_source_id: source });
    assert.deepEqual(all, {
      templates: [
        { id: task.id, name: 'Task template', is_default: true },
        { id: bug.id, name: 'Bug REPORT', is_default: false },
      ],
      has_more: false,
      next_cursor: null,
    });
    assert.deepEqual((await notion().dataSources.listTemplates({ data_source_id: source, name: 'bug rep' })).templates, [all.templates[1]]);
    assert.deepEqual((await notion().dataSources.listTemplates({ data_source_id: source, name: 'nothing like it' })).templates, []);
    const first = await notion().dataSources.listTemplates({ data_source_id: source, page_size: 1 });
    assert.deepEqual([first.templates.map((t) => t.id), first.has_more], [[task.id], true]);
    const second = await notion().dataSources.listTemplates({ data_source_id: source, page_size: 1, start_cursor: first.next_cursor! });
    assert.deepEqual([second.templates.map((t) => t.id), second.has_more, second.next_cursor], [[bug.id], false, null]);

    // One default per data source: a new default takes over.
    await admin(server, 'POST', `/data_sources/${source}/templates`, { page_id: bug.id, is_default: true });
    const defaults = (await notion().dataSources.listTemplates({ data_source_id: source })).templates.filter((t) => t.is_default);
    assert.deepEqual(
      defaults.map((t) => t.id),
      [bug.id],
    );
    assert.deepEqual(await admin(server, 'DELETE', `/data_sources/${source}/templates/${bug.id}`), { object: 'template', id: bug.id, deleted: true });
    assert.equal((await adminCall('DELETE', `/data_sources/${source}/templates/${bug.id}`)).status, 404);
    assert.deepEqual(
      (await notion().dataSources.listTemplates({ data_source_id: source })).templates.map((t) => t.id),
      [task.id],
    );

    // A template in the trash is not offered.
    await notion().pages.update({ page_id: task.id, in_trash: true });
    assert.deepEqual((await notion().dataSources.listTemplates({ data_source_id: source })).templates, []);
    await notion().pages.update({ page_id: task.id, in_trash: false });
    assert.equal((await notion().dataSources.listTemplates({ data_source_id: source })).templates.length, 1);
  });

  test('admin refusals: not a page of the data source, unknown data source', async () => {
    const { root, source } = await setUp(server, fx, notion());
    const loose = await adminCall('POST', `/data_sources/${source}/templates`, { page_id: root.id });
    assert.deepEqual([loose.status, loose.body.code], [400, 'validation_error']);
    assert.match(loose.body.message, /page_id/);
    const missing = await adminCall('POST', `/data_sources/0f0e0d0c-0b0a-4998-8776-655443322110/templates`, { page_id: root.id });
    assert.equal(missing.status, 404);
    const notSource = await adminCall('POST', `/data_sources/${root.id}/templates`, { page_id: root.id });
    assert.equal(notSource.status, 404);
  });

  test('listing: unshared is missing, read_content needed, bad page_size refused', async () => {
    const { source } = await setUp(server, fx, notion());
    const other = await makeWorkspace(server);
    const e = await refusal(notion(other.token).dataSources.listTemplates({ data_source_id: source }));
    assert.deepEqual([e.status, e.code], [404, 'object_not_found']);
    const unshared = await addConnection(server, fx.workspaceId, ['read_content']);
    assert.equal((await refusal(notion(unshared.token).dataSources.listTemplates({ data_source_id: source }))).status, 404);
    const blind = await addConnection(server, fx.workspaceId, ['insert_content']);
    assert.equal((await refusal(notion(blind.token).dataSources.listTemplates({ data_source_id: source }))).status, 403);
    const big = await call<Json>(server.url, 'GET', `/v1/data_sources/${source}/templates?page_size=101`, { token: fx.token });
    assert.deepEqual([big.status, big.body.code], [400, 'validation_error']);
  });

  test('create with the default template: blank at first, then filled and copied in the background', async () => {
    const { source, task } = await setUp(server, fx, notion());
    await admin(server, 'POST', `/data_sources/${source}/templates`, { page_id: task.id, is_default: true });
    const created = (await notion().pages.create({
      parent: { data_source_id: source },
      properties: { Name: { title: text('Ship it') }, Count: { number: 3 } },
      template: { type: 'default', timezone: 'Pacific/Kiritimati' },
    })) as Json;
    assert.equal(created.properties.Name.title[0].plain_text, 'Ship it');
    assert.equal(created.properties.Count.number, 3);
    assert.deepEqual(created.properties.Notes.rich_text, [], 'the response comes before the template is applied');
    assert.equal(created.properties.State.select, null);

    const children = await childrenWhenApplied(notion(), created.id, 3);
    assert.deepEqual(
      children.map((b) => b.type),
      ['heading_2', 'paragraph', 'to_do'],
    );
    assert.ok(!children.some((b) => [task.id].includes(b.id)));
    const templateChildren = (await notion().blocks.children.list({ block_id: task.id })).results.map((b) => b.id);
    assert.ok(
      children.every((b) => !templateChildren.includes(b.id)),
      'the content is copied, not moved',
    );
    assert.equal(templateChildren.length, 3);
    const [, paragraph, todo] = children;
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const items = paragraph.paragraph.rich_text;
    assert.deepEqual(items[1].mention, { type: 'date', date: { start: today, end: null, time_zone: null } });
    assert.deepEqual(items[3].mention, { type: 'user', user: { object: 'user', id: fx.user.id } });
    assert.equal(items[3].plain_text, '@Ada Lovelace');
    assert.equal(todo.has_children, true);
    const nested = (await notion().blocks.children.list({ block_id: todo.id })).results as Json[];
    assert.equal(nested[0].paragraph.rich_text[0].plain_text, 'nested detail');

    const page = (await notion().pages.retrieve({ page_id: created.id })) as Json;
    assert.equal(page.properties.Name.title[0].plain_text, 'Ship it', 'a given value is kept');
    assert.equal(page.properties.Count.number, 3);
    assert.equal(page.properties.Notes.rich_text[0].plain_text, 'from the template', 'an empty value is filled');
    assert.equal(page.properties.State.select.name, 'open');
    const queried = await notion().dataSources.query({ data_source_id: source, filter: { property: 'Notes', rich_text: { contains: 'template' } } } as any);
    assert.deepEqual(queried.results.map((r) => r.id).sort(), [task.id, created.id].sort());
  });

  test('create with template_id; the title comes from the template when none is given', async () => {
    const { source, bug, root } = await setUp(server, fx, notion());
    const created = (await notion().pages.create({
      parent: { data_source_id: source },
      properties: {},
      template: { type: 'template_id', template_id: bug.id },
    })) as Json;
    assert.deepEqual(created.properties.Name.title, []);
    const deadline = Date.now() + 15_000;
    let title = '';
    while (!title && Date.now() < deadline) {
      const page = (await notion().pages.retrieve({ page_id: created.id })) as Json;
      title = page.properties.Name.title[0]?.plain_text ?? '';
      if (!title) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(title, 'Bug REPORT');
    const found = (await notion().search({ query: 'Bug REPORT' })).results.map((r) => r.id);
    assert.ok(found.includes(created.id), 'search sees the title the template gave');

    // Any page the connection sees may be a template, also for a page outside a data source.
    const plain = (await notion().pages.create({
      parent: { page_id: root.id },
      properties: {},
      template: { type: 'template_id', template_id: bug.id },
    })) as Json;
    assert.deepEqual(plain.parent, { type: 'page_id', page_id: root.id });
  });

  test('refusals: children with a template, unknown or unshared template, no default, bad time zone', async () => {
    const { source, task, root } = await setUp(server, fx, notion());
    const create = (body: Json) => refusal(notion().pages.create(body as any));
    let e = await create({ parent: { data_source_id: source }, properties: {}, template: { type: 'template_id', template_id: task.id }, children: [] });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    assert.match(e.message, /children/);
    e = await create({ parent: { data_source_id: source }, properties: {}, template: { type: 'default' } });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    assert.match(e.message, /default template/);
    e = await create({ parent: { page_id: root.id }, properties: {}, template: { type: 'default' } });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    e = await create({
      parent: { data_source_id: source },
      properties: {},
      template: { type: 'template_id', template_id: '0f0e0d0c-0b0a-4998-8776-655443322110' },
    });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    assert.match(e.message, /template\.template_id/);
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Hidden template' });
    e = await create({ parent: { data_source_id: source }, properties: {}, template: { type: 'template_id', template_id: hidden.id } });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    e = await create({ parent: { data_source_id: source }, properties: {}, template: { type: 'template_id', template_id: task.id, timezone: 'Mars/Olympus' } });
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
    assert.match(e.message, /timezone/);
    const wrongType = await call<Json>(server.url, 'PATCH', `/v1/pages/${task.id}`, { token: fx.token, body: { template: { type: 'none' } } });
    assert.deepEqual([wrongType.status, wrongType.body.code], [400, 'validation_error']);
    // None is no template: children go in at once.
    const none = (await notion().pages.create({
      parent: { page_id: root.id },
      template: { type: 'none' },
      children: [{ paragraph: { rich_text: text('now') } }],
    } as any)) as Json;
    assert.equal((await notion().blocks.children.list({ block_id: none.id })).results.length, 1);
  });

  test('update: a template appends; erase_content first empties the page; erase_content alone deletes the children', async () => {
    const { source, task } = await setUp(server, fx, notion());
    const page = (await notion().pages.create({
      parent: { data_source_id: source },
      properties: { Name: { title: text('Existing') }, Notes: { rich_text: text('mine') } },
      children: [{ paragraph: { rich_text: text('already here') } }],
    })) as Json;
    await notion().pages.update({ page_id: page.id, template: { type: 'template_id', template_id: task.id } });
    let children = await childrenWhenApplied(notion(), page.id, 4);
    assert.equal(children[0].paragraph.rich_text[0].plain_text, 'already here');
    assert.equal(children[1].type, 'heading_2');
    const kept = (await notion().pages.retrieve({ page_id: page.id })) as Json;
    assert.equal(kept.properties.Notes.rich_text[0].plain_text, 'mine', 'a template does not overwrite a value the page has');
    assert.equal(kept.properties.State.select.name, 'open');

    const oldIds = children.map((b) => b.id);
    await notion().pages.update({ page_id: page.id, template: { type: 'template_id', template_id: task.id }, erase_content: true });
    children = await childrenWhenApplied(notion(), page.id, 3);
    assert.deepEqual(
      children.map((b) => b.type),
      ['heading_2', 'paragraph', 'to_do'],
    );
    assert.ok(children.every((b) => !oldIds.includes(b.id)));
    const trashed = (await notion().blocks.retrieve({ block_id: oldIds[0] })) as Json;
    assert.equal(trashed.in_trash, true);

    await notion().pages.update({ page_id: page.id, erase_content: true });
    assert.deepEqual((await notion().blocks.children.list({ block_id: page.id })).results, []);

    await notion().pages.update({ page_id: page.id, in_trash: true });
    const e = await refusal(notion().pages.update({ page_id: page.id, template: { type: 'template_id', template_id: task.id } }));
    assert.deepEqual([e.status, e.code], [400, 'validation_error']);
  });
});

describe('a template job survives a restart', () => {
  test('enqueued by a server without template workers, applied by the next one', async () => {
    const first = await startTestServer({ FOLIO_TEMPLATE_WORKERS: '0' });
    let second: TestServer | undefined;
    try {
      const fx = await makeWorkspace(first);
      const notion = new Client({ auth: fx.token, baseUrl: first.url, logger: quiet });
      const { source, task } = await setUp(first, fx, notion);
      const created = (await notion.pages.create({
        parent: { data_source_id: source },
        properties: {},
        template: { type: 'template_id', template_id: task.id },
      })) as Json;
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual((await notion.blocks.children.list({ block_id: created.id })).results, [], 'nothing applies it here');
      await first.close();
      second = await startTestServer({ FOLIO_DATA_DIR: first.dataDir });
      const again = new Client({ auth: fx.token, baseUrl: second.url, logger: quiet });
      assert.equal((await childrenWhenApplied(again, created.id, 3)).length, 3);
    } finally {
      await first.close().catch(() => undefined);
      await second?.close();
    }
  });
});

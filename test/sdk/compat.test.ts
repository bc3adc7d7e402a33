/**
 * Issue 26 item 8: every method of the official SDK (`@notionhq/client` 5.x) that Folio serves,
 * called through the SDK at 2022-06-28, 2025-09-03 and 2026-03-11. The methods are read off a
 * Client instance, so a method a newer SDK adds fails this test until it is either called here or
 * listed as not served, with the reason. At a version where an endpoint does not exist, the SDK
 * gets the service's `invalid_request_url` as an APIResponseError.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, iteratePaginatedAPI } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { blobOf, PNG, wav } from '../fileUploads/helpers.js';

type Json = Record<string, any>;
type Version = '2022-06-28' | '2025-09-03' | '2026-03-11';

const VERSIONS: readonly Version[] = ['2022-06-28', '2025-09-03', '2026-03-11'];

/** SDK methods Folio does not serve, and why. */
const NOT_SERVED: Record<string, string> = {
  request: 'the generic call every method is made of (exercised by all of them)',
};
/** Namespaces of the agent surface, which the spec does not describe. */
const NOT_SERVED_NAMESPACES = ['agents', 'sessions'];

/** Every method of a Client, by dotted name (`pages.properties.retrieve`). */
function sdkMethods(client: Client): string[] {
  const names: string[] = [];
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const key of Object.keys(value)) {
      if (key.startsWith('_')) continue;
      const member = value[key];
      if (typeof member === 'function') names.push(`${prefix}${key}`);
      else if (member && typeof member === 'object' && depth < 3) walk(member as Record<string, unknown>, `${prefix}${key}.`, depth + 1);
    }
  };
  walk(client as unknown as Record<string, unknown>, '', 0);
  // Methods on the prototype (request) are not own keys.
  names.push('request');
  return names.filter((name) => !NOT_SERVED_NAMESPACES.includes(name.split('.')[0]));
}

/** Endpoints that exist from a version on (src/versioning/): older callers get invalid_request_url. */
const FROM_2025 = new Set([
  'dataSources.retrieve',
  'dataSources.query',
  'dataSources.create',
  'dataSources.update',
  'dataSources.listTemplates',
  'views.create',
  'views.retrieve',
  'views.update',
  'views.delete',
  'views.list',
  'views.queries.create',
  'views.queries.results',
  'views.queries.delete',
]);

for (const version of VERSIONS) {
  describe(`the official SDK at ${version}`, () => {
    const { server, fx } = useServer();
    const quiet = () => {};
    let notion: Client;
    const called = new Set<string>();
    let page: Json;
    let database: Json;
    let dataSourceId: string;

    before(async () => {
      notion = new Client({ auth: fx.token, baseUrl: server.url, notionVersion: version, logger: quiet });
      page = await makeSharedPage(server, fx, `SDK ${version}`);
      // Made at the newest version, so every version's calls have one to read.
      const made = await call<Json>(server.url, 'POST', '/v1/databases', {
        token: fx.token,
        body: {
          parent: { type: 'page_id', page_id: page.id },
          title: [{ text: { content: 'Tasks' } }],
          initial_data_source: { properties: { Name: { title: {} } } },
        },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      database = made.body;
      dataSourceId = database.data_sources[0].id;
    });
    after(() => {
      const served = sdkMethods(notion).filter((name) => !(name in NOT_SERVED));
      const missed = served.filter((name) => !called.has(name));
      assert.deepEqual(missed, [], `served SDK methods not exercised at ${version}`);
    });

    /** Calls an SDK method; where its endpoint does not exist at this version, expects invalid_request_url. */
    async function sdk<T>(name: string, run: () => Promise<T>): Promise<T | null> {
      called.add(name);
      if (FROM_2025.has(name) && version === '2022-06-28') {
        await assert.rejects(run(), (error: unknown) => APIResponseError.isAPIResponseError(error) && error.code === APIErrorCode.InvalidRequestURL, name);
        return null;
      }
      return run();
    }

    test('users, search and the generic request', async () => {
      const me = (await sdk('users.me', () => notion.users.me({})))!;
      assert.equal(me.type, 'bot');
      assert.equal((await sdk('users.retrieve', () => notion.users.retrieve({ user_id: fx.user.id })))!.id, fx.user.id);
      const users = await collectPaginatedAPI(notion.users.list, { page_size: 1 });
      called.add('users.list');
      assert.ok(users.some((u) => u.id === fx.user.id));
      const found = (await sdk('search', () => notion.search({ query: `SDK ${version}` })))!;
      assert.ok(found.results.some((r) => r.id === page.id));
      const raw = await notion.request<Json>({ path: 'users/me', method: 'get' });
      assert.equal(raw.id, me.id);
    });

    test('pages: create, retrieve, update, a property, move', async () => {
      const created = (await sdk('pages.create', () =>
        notion.pages.create({ parent: { page_id: page.id }, properties: { title: { title: [{ text: { content: 'Child' } }] } } }),
      ))!;
      assert.equal((await sdk('pages.retrieve', () => notion.pages.retrieve({ page_id: created.id })))!.id, created.id);
      await sdk('pages.update', () => notion.pages.update({ page_id: created.id, properties: { title: { title: [{ text: { content: 'Renamed' } }] } } }));
      const title = (await sdk('pages.properties.retrieve', () => notion.pages.properties.retrieve({ page_id: created.id, property_id: 'title' }))) as Json;
      assert.equal(title.results[0].title.plain_text, 'Renamed');
      const elsewhere = await makeSharedPage(server, fx, 'Elsewhere');
      const moved = (await sdk('pages.move', () => notion.pages.move({ page_id: created.id, parent: { type: 'page_id', page_id: elsewhere.id } }))) as Json;
      assert.equal(moved.parent.page_id, elsewhere.id);
    });

    test('page markdown: read and edit', async () => {
      const target = await makeSharedPage(server, fx, 'Markdown');
      await sdk('pages.updateMarkdown', () =>
        notion.pages.updateMarkdown({ page_id: target.id, type: 'replace_content', replace_content: { new_str: 'Hello **world**' } }),
      );
      const markdown = (await sdk('pages.retrieveMarkdown', () => notion.pages.retrieveMarkdown({ page_id: target.id }))) as Json;
      assert.equal(markdown.markdown, 'Hello **world**');
    });

    test('blocks: append, list (paginated), retrieve, update, delete', async () => {
      const appended = (await sdk('blocks.children.append', () =>
        notion.blocks.children.append({
          block_id: page.id,
          children: [1, 2, 3].map((n) => ({ paragraph: { rich_text: [{ text: { content: `Line ${n}` } }] } })),
        }),
      ))!;
      const listed: unknown[] = [];
      for await (const block of iteratePaginatedAPI(notion.blocks.children.list, { block_id: page.id, page_size: 2 })) listed.push(block);
      called.add('blocks.children.list');
      assert.ok(listed.length >= 3);
      const first = appended.results[0];
      assert.equal((await sdk('blocks.retrieve', () => notion.blocks.retrieve({ block_id: first.id })))!.id, first.id);
      await sdk('blocks.update', () => notion.blocks.update({ block_id: first.id, paragraph: { rich_text: [{ text: { content: 'Edited' } }] } }));
      await sdk('blocks.delete', () => notion.blocks.delete({ block_id: first.id }));
    });

    test('databases and data sources', async () => {
      assert.equal((await sdk('databases.retrieve', () => notion.databases.retrieve({ database_id: database.id })))!.id, database.id);
      const created = (await sdk('databases.create', () =>
        notion.databases.create({ parent: { type: 'page_id', page_id: page.id }, title: [{ text: { content: 'More' } }] } as any),
      ))!;
      await sdk('databases.update', () => notion.databases.update({ database_id: created.id, title: [{ text: { content: 'More, renamed' } }] }));
      await sdk('dataSources.retrieve', () => notion.dataSources.retrieve({ data_source_id: dataSourceId }));
      await sdk('dataSources.update', () => notion.dataSources.update({ data_source_id: dataSourceId, title: [{ text: { content: 'Tasks 2' } }] }));
      await sdk('dataSources.create', () =>
        notion.dataSources.create({ parent: { type: 'database_id', database_id: database.id }, properties: { Name: { title: {} } } }),
      );
      const row = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        body: { parent: { data_source_id: dataSourceId }, properties: { Name: { title: [{ text: { content: 'Row' } }] } } },
      });
      assert.equal(row.status, 200);
      const rows = await sdk('dataSources.query', () => notion.dataSources.query({ data_source_id: dataSourceId }));
      if (rows) assert.ok(rows.results.some((r) => r.id === row.body.id));
      await admin(server, 'POST', `/data_sources/${dataSourceId}/templates`, { page_id: row.body.id });
      const templates = await sdk('dataSources.listTemplates', () => notion.dataSources.listTemplates({ data_source_id: dataSourceId }));
      if (templates)
        assert.deepEqual(
          templates.templates.map((t) => t.id),
          [row.body.id],
        );
    });

    test('views and view queries', async () => {
      const views = await sdk('views.list', () => notion.views.list({ database_id: database.id }));
      if (views) assert.ok(views.results.length >= 1);
      const view = (await sdk('views.create', () =>
        notion.views.create({ database_id: database.id, data_source_id: dataSourceId, name: 'Board', type: 'list' } as any),
      )) as Json | null;
      await sdk('views.retrieve', () => notion.views.retrieve({ view_id: view?.id ?? database.id }));
      await sdk('views.update', () => notion.views.update({ view_id: view?.id ?? database.id, name: 'Renamed' } as any));
      const query = (await sdk('views.queries.create', () => notion.views.queries.create({ view_id: view?.id ?? database.id }))) as Json | null;
      await sdk('views.queries.results', () => notion.views.queries.results({ view_id: view?.id ?? database.id, query_id: query?.id ?? database.id }));
      await sdk('views.queries.delete', () => notion.views.queries.delete({ view_id: view?.id ?? database.id, query_id: query?.id ?? database.id }));
      await sdk('views.delete', () => notion.views.delete({ view_id: view?.id ?? database.id }));
    });

    test('comments', async () => {
      const comment = (await sdk('comments.create', () => notion.comments.create({ parent: { page_id: page.id }, rich_text: [{ text: { content: 'Hi' } }] })))!;
      assert.equal((await sdk('comments.list', () => notion.comments.list({ block_id: page.id })))!.results[0].id, comment.id);
      await sdk('comments.retrieve', () => notion.comments.retrieve({ comment_id: comment.id }));
      await sdk('comments.update', () => notion.comments.update({ comment_id: comment.id, rich_text: [{ text: { content: 'Hello' } }] }));
      await sdk('comments.delete', () => notion.comments.delete({ comment_id: comment.id }));
    });

    test('file uploads, single and multi-part', async () => {
      const single = (await sdk('fileUploads.create', () => notion.fileUploads.create({ filename: 'photo.png', content_type: 'image/png' })))!;
      await sdk('fileUploads.send', () =>
        notion.fileUploads.send({ file_upload_id: single.id, file: { filename: 'photo.png', data: new Blob([PNG], { type: 'image/png' }) } }),
      );
      assert.equal((await sdk('fileUploads.retrieve', () => notion.fileUploads.retrieve({ file_upload_id: single.id })))!.status, 'uploaded');
      const multi = await notion.fileUploads.create({ mode: 'multi_part', number_of_parts: 1, filename: 'photo.png', content_type: 'image/png' });
      await notion.fileUploads.send({
        file_upload_id: multi.id,
        part_number: '1',
        file: { filename: 'photo.png', data: new Blob([PNG], { type: 'image/png' }) },
      });
      assert.equal((await sdk('fileUploads.complete', () => notion.fileUploads.complete({ file_upload_id: multi.id })))!.status, 'uploaded');
      const listed = (await sdk('fileUploads.list', () => notion.fileUploads.list({})))!;
      assert.ok(listed.results.some((u) => u.id === single.id));
    });

    test('custom emojis and async tasks', async () => {
      await admin(server, 'POST', `/workspaces/${fx.workspaceId}/custom_emojis`, {
        name: `party-${version.replace(/-/g, '')}`,
        content_type: 'image/png',
        data_base64: PNG.toString('base64'),
      });
      const emojis = (await sdk('customEmojis.list', () => notion.customEmojis.list({})))!;
      assert.ok(emojis.results.length >= 1);
      const task = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        version,
        body: { parent: { page_id: page.id }, properties: { title: { title: [{ text: { content: 'Later' } }] } }, allow_async: true },
      });
      assert.equal(task.status, 202, JSON.stringify(task.body));
      let polled: Json = {};
      for (let i = 0; i < 100; i++) {
        polled = (await sdk('asyncTasks.retrieve', () => notion.asyncTasks.retrieve({ task_id: task.body.id }))) as Json;
        if (polled.status === 'succeeded' || polled.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(polled.status, 'succeeded', JSON.stringify(polled));
    });

    test('oauth: token, introspect, revoke (issue 27; the install flow itself is in test/oauth/)', async () => {
      const integration = await admin(server, 'POST', '/integrations', {
        name: `OAuth ${version}`,
        redirect_uris: ['https://example.com/callback'],
        capabilities: ['read_content'],
      });
      const client = { client_id: integration.client_id, client_secret: integration.client_secret };
      const grant = await admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: fx.user.id, page_ids: [page.id] });
      const tokens = (await sdk('oauth.token', () => notion.oauth.token({ ...client, grant_type: 'authorization_code', code: grant.code })))!;
      assert.equal(tokens.token_type, 'bearer');
      const looked = (await sdk('oauth.introspect', () => notion.oauth.introspect({ ...client, token: tokens.access_token })))!;
      assert.equal(looked.active, true);
      await sdk('oauth.revoke', () => notion.oauth.revoke({ ...client, token: tokens.access_token }));
      assert.equal((await notion.oauth.introspect({ ...client, token: tokens.access_token })).active, false);
    });

    test('meeting notes: create from an upload, query', async () => {
      const upload = await notion.fileUploads.create({ filename: 'standup.wav', content_type: 'audio/wav' });
      await notion.fileUploads.send({ file_upload_id: upload.id, file: { filename: 'standup.wav', data: blobOf(wav(16_044), 'audio/wav') } });
      const note = (await sdk('blocks.meetingNotes.create', () =>
        notion.blocks.meetingNotes.create({
          parent: { type: 'page_id', page_id: page.id },
          source: { type: 'file_upload', file_upload_id: upload.id },
          title: 'Sync',
        }),
      )) as Json;
      const found = (await sdk('blocks.meetingNotes.query', () => notion.blocks.meetingNotes.query({}))) as Json;
      assert.ok(found.results.some((b: Json) => b.id === note.id));
    });
  });
}

/**
 * POST /v1/search over HTTP (issue 4): every request field, the response list, visibility,
 * cursors and versions. Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { addConnection, admin, makeWorkspace } from '../helpers/factories.js';
import { useContentWriter, WORKSPACE } from './helpers.js';

type Json = Record<string, any>;

describe('POST /v1/search', () => {
  const { server, fx } = useServer();
  const { writer } = useContentWriter(server, fx);
  /** Read content only, shared with "Private" alone. */
  let other: Json;
  let noRead: Json;
  let unshared: Json;
  const ids: Record<string, string> = {};

  const search = (body?: unknown, options: { token?: string; version?: string } = {}) =>
    call<Json>(server.url, 'POST', '/v1/search', { token: options.token ?? fx.token, body, version: options.version });
  const titles = (res: { body: Json }) =>
    (res.body.results as Json[]).map((r) => {
      const title = r.object === 'page' ? (Object.values(r.properties) as Json[]).find((p) => p.type === 'title')!.title : r.title;
      return (title as Json[]).map((t) => t.plain_text).join('');
    });
  const resultIds = (res: { body: Json }) => (res.body.results as Json[]).map((r) => r.id as string);

  before(async () => {
    other = await addConnection(server, fx.workspaceId, ['read_content']);
    noRead = await addConnection(server, fx.workspaceId, ['insert_content', 'update_content']);
    unshared = await addConnection(server, fx.workspaceId, ['read_content']);

    // Engineering (shared with fx) ─┬ Weekly Meeting notes
    //                               ├ ROADMAP 2025 ─ Roadmap details (a subpage)
    //                               ├ 100% done_items\path
    //                               ├ Élan vital
    //                               ├ Trashed meeting (trashed) ─ Child of trashed meeting
    //                               ├ Tasks (database) ─ Tasks (data source) ─ Task: write meeting agenda
    //                               └ Linked tasks (database) ─ Tasks (linked data source)
    // Private (shared with other) ── Secret meeting
    // Unshared ── Unshared meeting
    ids.engineering = await writer.page('Engineering');
    const eng = { type: 'page_id' as const, id: ids.engineering };
    ids.weekly = await writer.page('Weekly Meeting notes', eng);
    ids.roadmap = await writer.page('ROADMAP 2025', eng);
    ids.roadmapDetails = await writer.page('Roadmap details', { type: 'page_id', id: ids.roadmap });
    ids.special = await writer.page('100% done_items\\path', eng);
    ids.elan = await writer.page('Élan vital', eng);
    ids.trashed = await writer.page('Trashed meeting', eng);
    ids.trashedChild = await writer.page('Child of trashed meeting', { type: 'page_id', id: ids.trashed });
    const tasks = await writer.dataSource('Tasks', eng);
    ids.tasksDatabase = tasks.databaseId;
    ids.tasks = tasks.dataSourceId;
    ids.task = await writer.page('Task: write meeting agenda', { type: 'data_source_id', id: tasks.dataSourceId });
    ids.linked = (await writer.dataSource('Tasks', eng, { linked: true })).dataSourceId;
    await writer.block(ids.weekly, 'a meeting block is not a page');
    await writer.trash(ids.trashed);
    ids.private = await writer.page('Private');
    ids.secret = await writer.page('Secret meeting', { type: 'page_id', id: ids.private });
    ids.unsharedRoot = await writer.page('Unshared', WORKSPACE);
    ids.unsharedMeeting = await writer.page('Unshared meeting', { type: 'page_id', id: ids.unsharedRoot });
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: ids.engineering });
    await admin(server, 'POST', `/connections/${other.id}/grants`, { object_id: ids.private });
  });

  describe('matching', () => {
    test('finds shared pages and data sources whose titles contain the query, ignoring case', async () => {
      const res = await search({ query: 'MEETING' });
      assert.equal(res.status, 200);
      assert.deepEqual(titles(res), ['Task: write meeting agenda', 'Weekly Meeting notes']);
      const tasks = await search({ query: 'task' });
      assert.deepEqual(resultIds(tasks), [ids.task, ids.tasks], 'the data source, not its linked duplicate nor the database');
    });

    test('the response is the search list of the spec', async () => {
      const res = await search({ query: 'roadmap' });
      assert.deepEqual(Object.keys(res.body).sort(), ['has_more', 'next_cursor', 'object', 'page_or_data_source', 'request_status', 'results', 'type']);
      assert.equal(res.body.object, 'list');
      assert.equal(res.body.type, 'page_or_data_source');
      assert.deepEqual(res.body.page_or_data_source, {});
      assert.deepEqual(res.body.request_status, { type: 'complete' });
      assert.equal(res.body.has_more, false);
      assert.equal(res.body.next_cursor, null);
      const [details, roadmap] = res.body.results as Json[];
      assert.equal(roadmap.id, ids.roadmap);
      assert.equal(details.id, ids.roadmapDetails, 'subpages are found through their shared ancestor');
      for (const key of [
        'object',
        'id',
        'created_time',
        'last_edited_time',
        'in_trash',
        'is_archived',
        'is_locked',
        'url',
        'public_url',
        'parent',
        'properties',
      ]) {
        assert.ok(key in roadmap, `page has ${key}`);
      }
      assert.equal(roadmap.object, 'page');
      assert.deepEqual(roadmap.parent, { type: 'page_id', page_id: ids.engineering });
    });

    test('data sources come as data source objects', async () => {
      const res = await search({ query: 'tasks' });
      assert.deepEqual(resultIds(res), [ids.tasks]);
      const source = res.body.results[0] as Json;
      assert.equal(source.object, 'data_source');
      assert.deepEqual(source.parent, { type: 'database_id', database_id: ids.tasksDatabase });
      assert.equal(source.title[0].plain_text, 'Tasks');
    });

    test('no query, or an empty one, lists every shared page and data source, most recently edited first', async () => {
      const expected = [ids.task, ids.tasks, ids.elan, ids.special, ids.roadmapDetails, ids.roadmap, ids.weekly, ids.engineering];
      assert.deepEqual(resultIds(await search({})), expected);
      assert.deepEqual(resultIds(await search({ query: '' })), expected);
      assert.deepEqual(resultIds(await search()), expected, 'no body at all');
    });

    test('short queries and LIKE metacharacters match literally', async () => {
      for (const query of ['%', '_', '\\', '0%', '% done', 's\\p', 'done_']) {
        assert.deepEqual(resultIds(await search({ query })), [ids.special], `query ${JSON.stringify(query)}`);
      }
      assert.deepEqual(resultIds(await search({ query: 'd_ne' })), [], '_ is not a wildcard');
      assert.deepEqual(resultIds(await search({ query: '%done' })), [], '% is not a wildcard');
      assert.deepEqual(resultIds(await search({ query: 'x' })), [], 'a one-letter query that nothing contains');
      assert.deepEqual(resultIds(await search({ query: 'W' })), [ids.task, ids.weekly], 'a one-letter query');
    });

    test('query syntax of the full-text engines is plain text', async () => {
      const id = await writer.page('Say "hi" AND a*b (NEAR) ^x', { type: 'page_id', id: ids.engineering });
      for (const query of ['"hi"', '"', 'AND a', 'a*b', '(NEAR)', '^x', 'NEAR']) {
        const res = await search({ query });
        assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(resultIds(res), [id], query);
      }
      for (const query of ['*', 'a*', 'OR', '\ud800', '   ']) {
        const res = await search({ query });
        assert.equal(res.status, 200, `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
        assert.ok(!resultIds(res).includes(ids.weekly), JSON.stringify(query));
      }
      for (const query of ['\u0000', 'x\u0000y']) {
        const res = await search({ query });
        assert.ok(res.status === 200 || res.body.code === 'validation_error', `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
      }
    });

    test('case is ignored beyond ASCII, for short and long queries', async () => {
      for (const query of ['élan', 'ÉLAN', 'Él', 'éL', 'É']) assert.deepEqual(resultIds(await search({ query })), [ids.elan], query);
    });
  });

  describe('filter', () => {
    test('value page or data_source keeps one kind', async () => {
      assert.deepEqual(resultIds(await search({ query: 'task', filter: { property: 'object', value: 'page' } })), [ids.task]);
      assert.deepEqual(resultIds(await search({ filter: { property: 'object', value: 'data_source' } })), [ids.tasks]);
    });

    test('in_trash: true lists trashed objects and their descendants instead, alone or with the object filter', async () => {
      assert.deepEqual(resultIds(await search({ filter: { in_trash: true } })), [ids.trashed, ids.trashedChild], 'trashing edits the page');
      assert.deepEqual(resultIds(await search({ query: 'child', filter: { in_trash: true, property: 'object', value: 'page' } })), [ids.trashedChild]);
      assert.deepEqual(resultIds(await search({ filter: { in_trash: true, property: 'object', value: 'data_source' } })), []);
      assert.deepEqual(resultIds(await search({ query: 'trashed' })), [], 'not without in_trash');
      assert.deepEqual(resultIds(await search({ query: 'trashed', filter: { in_trash: false } })), []);
    });

    test('restoring brings an object back to the default listing', async () => {
      const id = await writer.page('Restorable meeting', { type: 'page_id', id: ids.engineering });
      await writer.trash(id);
      assert.deepEqual(resultIds(await search({ query: 'restorable' })), []);
      assert.deepEqual(resultIds(await search({ query: 'restorable', filter: { in_trash: true } })), [id]);
      await writer.trash(id, false);
      assert.deepEqual(resultIds(await search({ query: 'restorable' })), [id]);
      await writer.trash(id);
    });
  });

  describe('sort', () => {
    test('ascending and descending by last_edited_time; a rename or an edit moves the object', async () => {
      const body = (direction: string) => ({ query: 'meeting', sort: { timestamp: 'last_edited_time', direction } });
      assert.deepEqual(resultIds(await search(body('descending'))), [ids.task, ids.weekly]);
      assert.deepEqual(resultIds(await search(body('ascending'))), [ids.weekly, ids.task]);
      await writer.touch(ids.weekly);
      assert.deepEqual(resultIds(await search(body('descending'))), [ids.weekly, ids.task]);
      await writer.rename(ids.task, 'Task: write the meeting agenda');
      assert.deepEqual(resultIds(await search(body('descending'))), [ids.task, ids.weekly]);
      assert.deepEqual(titles(await search({ query: 'the meeting' })), ['Task: write the meeting agenda']);
      assert.deepEqual(resultIds(await search({ query: 'write meeting' })), [], 'the old title no longer matches');
    });
  });

  describe('visibility', () => {
    test('each connection sees only what is shared with it', async () => {
      assert.deepEqual(resultIds(await search({ query: 'meeting' }, { token: other.token })), [ids.secret]);
      assert.deepEqual(resultIds(await search({}, { token: other.token })), [ids.secret, ids.private]);
      assert.deepEqual(resultIds(await search({}, { token: unshared.token })), []);
      assert.ok(!resultIds(await search({ query: 'meeting' })).includes(ids.secret));
      assert.ok(!resultIds(await search({ query: 'meeting' })).includes(ids.unsharedMeeting));
    });

    test('a grant revoked stops the listing, a grant given starts it', async () => {
      await admin(server, 'POST', `/connections/${unshared.id}/grants`, { object_id: ids.roadmap });
      assert.deepEqual(resultIds(await search({}, { token: unshared.token })), [ids.roadmapDetails, ids.roadmap]);
      await admin(server, 'DELETE', `/connections/${unshared.id}/grants/${ids.roadmap}`);
      assert.deepEqual(resultIds(await search({}, { token: unshared.token })), []);
    });

    test('another workspace is never searched', async () => {
      const elsewhere = await makeWorkspace(server, { name: 'Elsewhere' });
      const page = await admin(server, 'POST', `/workspaces/${elsewhere.workspaceId}/pages`, { title: 'Weekly meeting elsewhere' });
      await admin(server, 'POST', `/connections/${elsewhere.connection.id}/grants`, { object_id: page.id });
      assert.deepEqual(resultIds(await search({ query: 'meeting' }, { token: elsewhere.token })), [page.id]);
      assert.ok(!resultIds(await search({ query: 'meeting' })).includes(page.id));
    });

    test('without read content: 403 restricted_resource', async () => {
      const res = await search({ query: 'meeting' }, { token: noRead.token });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'restricted_resource');
    });

    test('without a valid token: 401', async () => {
      const res = await call<Json>(server.url, 'POST', '/v1/search', { token: 'folio_nope', body: {} });
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'unauthorized');
    });
  });

  describe('validation', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['unknown key', { foo: 1 }, /body\.foo should be not present/],
      ['query not a string', { query: 7 }, /body\.query should be a string/],
      ['query too long', { query: 'x'.repeat(2001) }, /body\.query\.length should be ≤ `2000`/],
      ['filter property', { filter: { property: 'title', value: 'page' } }, /body\.filter\.property should be "object"/],
      [
        'filter value',
        { filter: { property: 'object', value: 'database' } },
        /body\.filter\.value should be "page" or "data_source", instead was `"database"`/,
      ],
      ['filter value without property', { filter: { value: 'page' } }, /body\.filter\.property should be defined/],
      ['filter property without value', { filter: { property: 'object' } }, /body\.filter\.value should be defined/],
      ['filter in_trash', { filter: { in_trash: 'yes' } }, /body\.filter\.in_trash should be a boolean/],
      ['filter unknown key', { filter: { archived: true } }, /body\.filter\.archived should be not present/],
      ['sort timestamp', { sort: { timestamp: 'created_time', direction: 'ascending' } }, /body\.sort\.timestamp should be "last_edited_time"/],
      ['sort direction', { sort: { timestamp: 'last_edited_time', direction: 'up' } }, /body\.sort\.direction should be "ascending" or "descending"/],
      ['sort without direction', { sort: { timestamp: 'last_edited_time' } }, /body\.sort\.direction should be defined/],
      ['page_size too large', { page_size: 101 }, /body\.page_size should be ≤ `100`, instead was `101`/],
      ['page_size zero', { page_size: 0 }, /body\.page_size should be ≥ `1`/],
      ['page_size fraction', { page_size: 1.5 }, /body\.page_size should be an integer/],
      ['page_size as text', { page_size: '10' }, /body\.page_size should be an integer/],
      ['start_cursor not a string', { start_cursor: 5 }, /body\.start_cursor should be a string/],
    ];
    for (const [name, body, message] of cases) {
      test(`${name} → validation_error naming the field`, async () => {
        const res = await search(body);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.code, 'validation_error');
        assert.match(res.body.message, message);
      });
    }

    test('a body that is not JSON → invalid_json', async () => {
      const res = await call<Json>(server.url, 'POST', '/v1/search', { token: fx.token, rawBody: '{"query":' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_json');
    });
  });

  describe('cursors', () => {
    const cursorOf = async (body: Json) => {
      const res = await search({ ...body, page_size: 1 });
      assert.equal(res.status, 200);
      assert.equal(res.body.has_more, true);
      return res.body.next_cursor as string;
    };
    const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

    test('pages through a listing with page_size 1 to a null next_cursor', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 20; i++) {
        const res = await search({ page_size: 1, ...(cursor ? { start_cursor: cursor } : {}) });
        assert.equal(res.status, 200);
        assert.equal((res.body.results as Json[]).length, 1);
        seen.push(...resultIds(res));
        assert.equal(res.body.has_more, res.body.next_cursor !== null);
        if (!res.body.next_cursor) break;
        cursor = res.body.next_cursor;
      }
      assert.deepEqual(seen, resultIds(await search({})));
    });

    test('tampered, foreign and mismatched cursors are validation errors, never 500', async () => {
      const good = await cursorOf({ query: 'e' });
      const key = decode(good);
      const users = await call<Json>(server.url, 'GET', '/v1/users?page_size=1', { token: fx.token });
      const forged = [
        'not a cursor!',
        'bm90LWpzb24',
        good.slice(0, -3),
        users.body.next_cursor,
        encode({ s: 'search', k: [key.k[0], 'abc', key.k[2]] }),
        encode({ s: 'search', k: [key.k[0], '99999999999999999999', key.k[2]] }),
        encode({ s: 'search', k: ['x:y:', key.k[1], key.k[2]] }),
        encode({ s: 'search', k: ['9:1:', key.k[1], key.k[2]] }),
        encode({ s: 'search', k: ['1:9:12', key.k[1], key.k[2]] }),
        encode({ s: 'search', k: [-1, key.k[1], key.k[2]] }),
        encode({ s: 'search', k: [key.k[0], key.k[1]] }),
        encode({ s: 'search', k: [key.k[0], key.k[1], key.k[2], 'extra'] }),
        encode({ s: 'search' }),
        encode(['search']),
      ];
      for (const cursor of forged) {
        const res = await search({ query: 'e', start_cursor: cursor });
        assert.equal(res.status, 400, `cursor ${cursor}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'validation_error');
        assert.match(res.body.message, /body\.start_cursor should be/);
      }
      const mismatched = await search({ query: 'a', start_cursor: good });
      assert.equal(mismatched.status, 400);
      assert.match(mismatched.body.message, /body\.start_cursor should be a cursor returned for the same query, filter and sort/);
      const sorted = await search({ query: 'e', start_cursor: good, sort: { timestamp: 'last_edited_time', direction: 'ascending' } });
      assert.equal(sorted.status, 400);
      const ok = await search({ query: 'e', start_cursor: good });
      assert.equal(ok.status, 200, 'the untouched cursor still works');
    });

    test('a cursor may be used by another connection; it shows only what that connection may see', async () => {
      const cursor = await cursorOf({});
      const res = await search({ start_cursor: cursor }, { token: other.token });
      assert.equal(res.status, 200);
      for (const id of resultIds(res)) assert.ok([ids.secret, ids.private].includes(id));
    });
  });

  describe('versions', () => {
    test('before 2025-09-03: page_or_database, filter value database, data sources shown as their databases', async () => {
      const res = await search({ filter: { property: 'object', value: 'database' } }, { version: '2022-06-28' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.type, 'page_or_database');
      assert.deepEqual(res.body.page_or_database, {});
      assert.ok(!('page_or_data_source' in res.body));
      const [database] = res.body.results as Json[];
      assert.equal(database.object, 'database');
      assert.equal(database.id, ids.tasksDatabase);
      assert.deepEqual(database.parent, { type: 'page_id', page_id: ids.engineering });
      assert.ok(!('database_parent' in database));
      assert.ok(String(database.url).endsWith(ids.tasksDatabase.replace(/-/g, '')));
      const pages = await search({ query: 'meeting', filter: { property: 'object', value: 'page' } }, { version: '2022-06-28' });
      assert.ok((pages.body.results as Json[]).every((r) => r.object === 'page'));
      const refused = await search({ filter: { property: 'object', value: 'data_source' } }, { version: '2022-06-28' });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, /body\.filter\.value should be "page" or "database", instead was `"data_source"`/);
    });

    test('2025-09-03 and later: page_or_data_source and data_source objects', async () => {
      for (const version of ['2025-09-03', '2026-03-11']) {
        const res = await search({ filter: { property: 'object', value: 'data_source' } }, { version });
        assert.equal(res.status, 200);
        assert.equal(res.body.type, 'page_or_data_source');
        assert.deepEqual(resultIds(res), [ids.tasks]);
        assert.equal(res.body.results[0].object, 'data_source');
      }
    });
  });
});

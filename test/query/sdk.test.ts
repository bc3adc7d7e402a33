/**
 * Issue 12 through the official SDK (`@notionhq/client` 5.x, only `baseUrl` changed):
 * `dataSources.query` at its default version (2025-09-03) and at the newest, against the old
 * `POST /v1/databases/{id}/query` at 2022-06-28 over raw HTTP: the same filter finds the same
 * pages, each in its version's shape; `filter_properties`; the SDK's pagination helpers; and each
 * endpoint at a version where it does not exist. SQLite, or PostgreSQL with DATABASE_URL.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, isFullPage, iteratePaginatedAPI } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { createPage, createSource, expectError, Labels, ok, text, type Json, type Source } from './helpers.js';

const quiet = () => {};
const OLD = '2022-06-28';

describe('queries through the official SDK, and the database query of 2022-06-28', () => {
  const { server, fx } = useServer();
  const labels = new Labels();
  let source: Source;

  /*
   *        Pages  Genre    Read
   *   b1   120    novel    ✓
   *   b2   300    essay    ✗
   *   b3   80     novel    ✗
   *   b4   —      poetry   ✓
   *   b5   410    —        ✗
   */
  before(async () => {
    const root = await makeSharedPage(server, fx);
    source = await createSource(server, fx.token, root.id, 'Library', {
      Name: { title: {} },
      Pages: { number: {} },
      Genre: { select: { options: [{ name: 'novel' }, { name: 'essay' }, { name: 'poetry' }] } },
      Read: { checkbox: {} },
    });
    const rows: Array<[string, number | null, string | null, boolean]> = [
      ['b1', 120, 'novel', true],
      ['b2', 300, 'essay', false],
      ['b3', 80, 'novel', false],
      ['b4', null, 'poetry', true],
      ['b5', 410, null, false],
    ];
    for (const [label, pages, genre, read] of rows) {
      const page = await createPage(server, fx.token, source.id, {
        Name: { title: text(label) },
        ...(pages === null ? {} : { Pages: { number: pages } }),
        ...(genre === null ? {} : { Genre: { select: { name: genre } } }),
        Read: { checkbox: read },
      });
      labels.add(label, page.id);
    }
  });

  /** The same filters, in the shape both versions take; with the pages they find, in order. */
  const FILTERS: Array<[string, Json, Json[] | undefined, string[]]> = [
    ['one condition', { property: 'Pages', number: { greater_than: 100 } }, undefined, ['b1', 'b2', 'b5']],
    [
      'a compound filter, sorted',
      {
        or: [
          { property: 'Genre', select: { equals: 'novel' } },
          {
            and: [
              { property: 'Read', checkbox: { equals: true } },
              { property: 'Pages', number: { is_empty: true } },
            ],
          },
        ],
      },
      [{ property: 'Pages', direction: 'descending' }],
      ['b1', 'b3', 'b4'],
    ],
    ['a negative condition matches empty values', { property: 'Genre', select: { does_not_equal: 'novel' } }, undefined, ['b2', 'b4', 'b5']],
  ];

  /** POST /v1/databases/{id}/query at 2022-06-28, over raw HTTP. */
  const oldQuery = (databaseId: string, body: Json, search = '') =>
    call<Json>(server.url, 'POST', `/v1/databases/${databaseId}/query${search}`, { token: fx.token, body, version: OLD });

  for (const notionVersion of [undefined, LATEST_VERSION]) {
    describe(`SDK at ${notionVersion ?? 'its default version (2025-09-03)'}`, () => {
      const client = () => new Client({ auth: fx.token, baseUrl: server.url, notionVersion, logger: quiet });

      for (const [name, filter, sorts, expected] of FILTERS) {
        test(`${name}: dataSources.query and the old database query find the same pages`, async () => {
          const res = await client().dataSources.query({ data_source_id: source.id, filter: filter as never, ...(sorts ? { sorts: sorts as never } : {}) });
          assert.equal(res.object, 'list');
          assert.equal(res.type, 'page_or_data_source');
          assert.deepEqual(res.page_or_data_source, {});
          assert.deepEqual(res.request_status, { type: 'complete' });
          assert.equal(res.has_more, false);
          assert.equal(res.next_cursor, null);
          assert.deepEqual(labels.of(res.results), expected);
          for (const page of res.results) {
            assert.ok(isFullPage(page));
            assert.deepEqual(page.parent, { type: 'data_source_id', data_source_id: source.id, database_id: source.databaseId });
            // `archived` beside `in_trash` until 2026-03-11 removed it.
            assert.equal('archived' in page, notionVersion !== LATEST_VERSION);
          }

          const old = await oldQuery(source.databaseId, { filter, ...(sorts ? { sorts } : {}) });
          assert.equal(old.status, 200, JSON.stringify(old.body));
          assert.equal(old.body.object, 'list');
          assert.equal(old.body.type, 'page_or_database');
          assert.deepEqual(old.body.page_or_database, {});
          assert.equal(old.body.has_more, false);
          assert.equal(old.body.next_cursor, null);
          assert.deepEqual(
            old.body.results.map((p: Json) => p.id),
            res.results.map((p) => p.id),
          );
          for (const page of old.body.results) {
            assert.deepEqual(page.parent, { type: 'database_id', database_id: source.databaseId });
            assert.equal(page.archived, false);
            assert.equal(page.properties.Pages.type, 'number');
          }
        });
      }

      test('filter_properties trims the properties, by name or by id', async () => {
        const genreId = source.properties.Genre.id as string;
        const res = await client().dataSources.query({ data_source_id: source.id, filter_properties: ['Pages', genreId] });
        assert.equal(res.results.length, 5);
        for (const page of res.results) {
          assert.ok(isFullPage(page));
          assert.deepEqual(Object.keys(page.properties).sort(), ['Genre', 'Pages']);
        }
        const b1 = res.results.find((p) => p.id === labels.id('b1'));
        assert.ok(b1 && isFullPage(b1));
        assert.deepEqual(b1.properties.Pages, { id: source.properties.Pages.id, type: 'number', number: 120 });

        const old = await oldQuery(source.databaseId, { filter: { property: 'Read', checkbox: { equals: true } } }, '?filter_properties=Read');
        assert.equal(old.status, 200, JSON.stringify(old.body));
        assert.deepEqual(labels.of(old.body.results), ['b1', 'b4']);
        for (const page of old.body.results) assert.deepEqual(Object.keys(page.properties), ['Read']);

        // Unknown names are ignored, as retrieving a page ignores them (docs/decisions.md).
        const unknown = await call<Json>(server.url, 'POST', `/v1/data_sources/${source.id}/query?filter_properties=Pages&filter_properties=Nope`, {
          token: fx.token,
          body: {},
          version: notionVersion,
        });
        assert.equal(unknown.status, 200, JSON.stringify(unknown.body));
        for (const page of unknown.body.results) assert.deepEqual(Object.keys(page.properties), ['Pages']);
      });

      test('collectPaginatedAPI and iteratePaginatedAPI walk every page once', async () => {
        const all = await collectPaginatedAPI(client().dataSources.query, { data_source_id: source.id, page_size: 2 });
        assert.deepEqual(labels.of(all), ['b1', 'b2', 'b3', 'b4', 'b5']);
        const iterated: string[] = [];
        const filter = { property: 'Read', checkbox: { equals: false } } as const;
        for await (const page of iteratePaginatedAPI(client().dataSources.query, { data_source_id: source.id, filter, page_size: 1 })) iterated.push(page.id);
        assert.deepEqual(labels.of(iterated), ['b2', 'b3', 'b5']);
      });

      test('errors come back as APIResponseError with the right code', async () => {
        await assert.rejects(client().dataSources.query({ data_source_id: randomUUID() }), (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ObjectNotFound);
          assert.equal(error.status, 404);
          return true;
        });
        const invalid = client().dataSources.query({
          data_source_id: source.id,
          filter: { property: 'Pages', number: { equals: 'many' as unknown as number } },
        });
        await assert.rejects(invalid, (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ValidationError);
          assert.match(error.message, /body\.filter\.number\.equals/);
          return true;
        });
      });
    });
  }

  test('each endpoint answers invalid_request_url at a version where it does not exist', async () => {
    for (const version of ['2025-09-03', LATEST_VERSION]) {
      const res = await call<Json>(server.url, 'POST', `/v1/databases/${source.databaseId}/query`, { token: fx.token, body: {}, version });
      expectError(res, 400, 'invalid_request_url');
    }
    for (const version of [OLD, '2021-05-13']) {
      const res = await call<Json>(server.url, 'POST', `/v1/data_sources/${source.id}/query`, { token: fx.token, body: {}, version });
      expectError(res, 400, 'invalid_request_url');
    }
    const oldClient = new Client({ auth: fx.token, baseUrl: server.url, notionVersion: OLD, logger: quiet });
    await assert.rejects(oldClient.dataSources.query({ data_source_id: source.id }), (error: unknown) => {
      assert.ok(APIResponseError.isAPIResponseError(error));
      assert.equal(error.code, APIErrorCode.InvalidRequestURL);
      assert.equal(error.status, 400);
      return true;
    });
    // The old route exists before 2025-09-03; an unknown database there is object_not_found.
    expectError(await oldQuery(randomUUID(), {}), 404, 'object_not_found');
  });

  test('at 2022-06-28, a database with two data sources is queried through its first', async () => {
    const second = await ok(server, fx.token, 'POST', '/v1/data_sources', {
      parent: { database_id: source.databaseId },
      title: text('Second shelf'),
      properties: { Title: { title: {} }, Pages: { number: {} } },
    });
    await createPage(server, fx.token, second.id, { Title: { title: text('elsewhere') }, Pages: { number: 999 } });
    const old = await oldQuery(source.databaseId, { filter: { property: 'Pages', number: { greater_than: 100 } } });
    assert.equal(old.status, 200, JSON.stringify(old.body));
    assert.deepEqual(labels.of(old.body.results), ['b1', 'b2', 'b5']);
    const all = await oldQuery(source.databaseId, { page_size: 2 });
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(labels.of(all.body.results), ['b1', 'b2']);
    assert.equal(all.body.has_more, true);
  });
});

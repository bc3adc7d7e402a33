/**
 * POST /v1/search through the official SDK (`@notionhq/client` 5.x) with only `baseUrl` changed,
 * at its default version (2025-09-03) and at 2026-03-11: results, filters, sort, its pagination
 * helpers, and errors recognised as APIResponseError. SQLite, or PostgreSQL with DATABASE_URL.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, isFullDataSource, isFullPage, iteratePaginatedAPI } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { addConnection } from '../helpers/factories.js';
import { useContentWriter } from './helpers.js';

const quiet = () => {};

describe('search through the official SDK', () => {
  const { server, fx } = useServer();
  const { writer } = useContentWriter(server, fx);
  let readless: Record<string, any>;
  const ids: Record<string, string> = {};
  const notes: string[] = [];

  before(async () => {
    ids.root = await writer.page('Team wiki');
    const root = { type: 'page_id' as const, id: ids.root };
    for (let i = 0; i < 7; i++) notes.push(await writer.page(`Meeting notes #${i}`, root));
    const source = await writer.dataSource('Meeting tracker', root);
    ids.source = source.dataSourceId;
    ids.old = await writer.page('Old meeting', root);
    await writer.trash(ids.old);
    await writer.grant(fx.connection.id, ids.root);
    readless = await addConnection(server, fx.workspaceId, ['insert_content']);
  });

  for (const notionVersion of [undefined, LATEST_VERSION]) {
    describe(`notionVersion ${notionVersion ?? 'default (2025-09-03)'}`, () => {
      const client = (auth = fx.token) => new Client({ auth, baseUrl: server.url, notionVersion, logger: quiet });

      test('search returns full pages and data sources, newest first', async () => {
        const res = await client().search({ query: 'meeting' });
        assert.equal(res.object, 'list');
        assert.equal(res.type, 'page_or_data_source');
        assert.deepEqual(res.request_status, { type: 'complete' });
        assert.deepEqual(
          res.results.map((r) => r.id),
          [ids.source, ...[...notes].reverse()],
        );
        const [source, page] = res.results;
        assert.ok(isFullDataSource(source));
        assert.equal(source.title[0].plain_text, 'Meeting tracker');
        assert.ok(isFullPage(page));
        assert.equal(page.parent.type, 'page_id');
      });

      test('filters, sort and trash', async () => {
        const pages = await client().search({ query: 'meeting', filter: { property: 'object', value: 'page' } });
        assert.ok(pages.results.every((r) => r.object === 'page'));
        const sources = await client().search({ filter: { property: 'object', value: 'data_source' } });
        assert.deepEqual(
          sources.results.map((r) => r.id),
          [ids.source],
        );
        const oldest = await client().search({ query: 'notes', sort: { timestamp: 'last_edited_time', direction: 'ascending' }, page_size: 1 });
        assert.equal(oldest.results[0].id, notes[0]);
        const trashed = await client().search({ filter: { in_trash: true } });
        assert.deepEqual(
          trashed.results.map((r) => r.id),
          [ids.old],
        );
      });

      test('collectPaginatedAPI and iteratePaginatedAPI walk every page', async () => {
        const all = await collectPaginatedAPI(client().search, { query: 'notes', page_size: 2 });
        assert.deepEqual(
          all.map((r) => r.id),
          [...notes].reverse(),
        );
        const iterated: string[] = [];
        for await (const result of iteratePaginatedAPI(client().search, { page_size: 3 })) iterated.push(result.id);
        assert.equal(iterated.length, notes.length + 2, 'notes, the data source and the wiki page');
        assert.equal(new Set(iterated).size, iterated.length);
      });

      test('errors come back as APIResponseError with the right code', async () => {
        const invalid = client().search({ page_size: 500 });
        await assert.rejects(invalid, (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ValidationError);
          assert.match(error.message, /body\.page_size should be ≤ `100`/);
          return true;
        });
        await assert.rejects(client(readless.token).search({ query: 'x' }), (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.RestrictedResource);
          assert.equal(error.status, 403);
          return true;
        });
        await assert.rejects(client().search({ start_cursor: 'garbage' }), (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ValidationError);
          return true;
        });
      });
    });
  }
});

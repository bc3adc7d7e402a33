/**
 * View queries (FACTS.md §10.8 8.6): the same pages as `dataSources.query` with the view's filter
 * and sorts, paged from the kept result, expired after 15 minutes on the test clock, cut at the
 * cap (lowered here by FOLIO_VIEW_QUERY_RESULT_LIMIT), and only for the connection that ran them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { createPage, createSource, NOW, setClock, TEST_CLOCK_ENV, text, updatePage, type Json, type Source } from '../query/helpers.js';

const quiet = () => {};
const CAP = 7;

async function rejects(promise: Promise<unknown>, code: string): Promise<void> {
  try {
    await promise;
    assert.fail(`expected ${code}`);
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), String(error));
    assert.equal(error.code, code, error.message);
  }
}

describe('view queries', () => {
  const { server, fx } = useServer({ env: { ...TEST_CLOCK_ENV, FOLIO_VIEW_QUERY_RESULT_LIMIT: String(CAP) } });
  const client = () => new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });
  let source: Source;
  const filter = {
    and: [
      { property: 'Points', number: { greater_than_or_equal_to: 2 } },
      { property: 'Tag', select: { does_not_equal: ['skip'] } },
    ],
  };
  const sorts = [
    { property: 'Points', direction: 'descending' },
    { property: 'Name', direction: 'ascending' },
  ];

  test('setup', async () => {
    await setClock(server, NOW);
    const page = await makeSharedPage(server, fx);
    source = await createSource(server, fx.token, page.id, 'Scores', {
      Name: { title: {} },
      Points: { number: {} },
      Tag: { select: { options: [{ name: 'keep' }, { name: 'skip' }] } },
    });
    for (let i = 0; i < 12; i++) {
      await createPage(server, fx.token, source.id, {
        Name: { title: text(`p${String(i).padStart(2, '0')}`) },
        Points: { number: i % 5 },
        Tag: { select: { name: i % 4 === 0 ? 'skip' : 'keep' } },
      });
    }
  });

  test('results equal dataSources.query with the same filter and sorts, paged from the kept result', async () => {
    const view = await client().views.create({
      database_id: source.databaseId,
      data_source_id: source.id,
      name: 'High',
      type: 'table',
      filter: filter as any,
      sorts: sorts as any,
    });
    const expected = (await client().dataSources.query({ data_source_id: source.id, filter: filter as any, sorts: sorts as any })).results.map((p) => p.id);
    assert.ok(expected.length > 3 && expected.length <= CAP, `${expected.length} pages match`);
    const first = await client().views.queries.create({ view_id: view.id, page_size: 3 });
    assert.equal(first.object, 'view_query');
    assert.equal(first.view_id, view.id);
    assert.equal(first.total_count, expected.length);
    assert.equal(first.expires_at, new Date(Date.parse(NOW) + 15 * 60_000).toISOString());
    assert.deepEqual(first.request_status, { type: 'complete' });
    assert.equal(first.results.length, 3);
    assert.ok(first.has_more && first.next_cursor);
    const ids = first.results.map((r) => r.id);
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const next = await client().views.queries.results({ view_id: view.id, query_id: first.id, start_cursor: cursor, page_size: 3 });
      assert.equal(next.object, 'list');
      assert.equal(next.type, 'page');
      assert.deepEqual(next.page, {});
      ids.push(...next.results.map((r) => r.id));
      cursor = next.next_cursor;
      assert.equal(next.has_more, cursor !== null);
    }
    assert.deepEqual(ids, expected);
    // Later edits do not change a kept result.
    await client().pages.update({ page_id: expected[0], properties: { Points: { number: 0 } } });
    const again = await client().views.queries.results({ view_id: view.id, query_id: first.id });
    assert.deepEqual(
      again.results.map((r) => r.id),
      expected,
    );
  });

  test('every plan the data-source query may take gives the same ids', async () => {
    const definitions: Json[] = [
      {},
      { sorts: [{ property: 'Points', direction: 'ascending' }] },
      { filter: { property: 'Tag', select: { equals: 'keep' } } },
      { filter: { property: 'Tag', select: { equals: 'keep' } }, sorts: [{ property: 'Points', direction: 'descending' }] },
      {
        filter: {
          or: [
            { property: 'Points', number: { equals: 0 } },
            { property: 'Name', title: { ends_with: '1' } },
          ],
        },
        sorts: [{ timestamp: 'created_time', direction: 'descending' }],
      },
      {
        sorts: [
          { property: 'Tag', direction: 'ascending' },
          { property: 'Name', direction: 'descending' },
        ],
      },
    ];
    for (const definition of definitions) {
      const view = await client().views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'Plan', type: 'list', ...definition });
      const expected = (await client().dataSources.query({ data_source_id: source.id, ...definition } as any)).results.map((p) => p.id);
      const query = await client().views.queries.create({ view_id: view.id });
      assert.deepEqual(
        query.results.map((r) => r.id),
        expected.slice(0, CAP),
        JSON.stringify(definition),
      );
    }
  });

  test('a view without filter lists every page; past the cap the result is cut and says so', async () => {
    const [view] = (await client().views.list({ database_id: source.databaseId })).results;
    const all = (await client().dataSources.query({ data_source_id: source.id })).results.map((p) => p.id);
    assert.equal(all.length, 12);
    const query = await client().views.queries.create({ view_id: view.id });
    assert.equal(query.total_count, CAP);
    assert.deepEqual(query.request_status, { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' });
    assert.deepEqual(
      query.results.map((r) => r.id),
      all.slice(0, CAP),
    );
    const page = await client().views.queries.results({ view_id: view.id, query_id: query.id });
    assert.deepEqual(page.request_status, { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' });
  });

  test('expiry, wrong view, foreign cursor, delete', async () => {
    const [view] = (await client().views.list({ database_id: source.databaseId })).results;
    const other = await client().views.create({ database_id: source.databaseId, data_source_id: source.id, name: 'Other', type: 'list' });
    const q1 = await client().views.queries.create({ view_id: view.id, page_size: 2 });
    const q2 = await client().views.queries.create({ view_id: view.id, page_size: 2 });
    await rejects(client().views.queries.results({ view_id: other.id, query_id: q1.id }), APIErrorCode.ObjectNotFound);
    const foreign = await call<Json>(server.url, 'GET', `/v1/views/${view.id}/queries/${q1.id}?start_cursor=${q2.next_cursor}`, { token: fx.token });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.code, 'validation_error');
    assert.match(foreign.body.message, /start_cursor/);

    assert.deepEqual(await client().views.queries.delete({ view_id: view.id, query_id: q1.id }), { object: 'view_query', id: q1.id, deleted: true });
    assert.deepEqual(await client().views.queries.delete({ view_id: view.id, query_id: q1.id }), { object: 'view_query', id: q1.id, deleted: true });
    await rejects(client().views.queries.results({ view_id: view.id, query_id: q1.id }), APIErrorCode.ObjectNotFound);

    await setClock(server, new Date(Date.parse(NOW) + 15 * 60_000 - 1000).toISOString());
    assert.equal((await client().views.queries.results({ view_id: view.id, query_id: q2.id, page_size: 2 })).results.length, 2);
    await setClock(server, new Date(Date.parse(NOW) + 15 * 60_000).toISOString());
    await rejects(client().views.queries.results({ view_id: view.id, query_id: q2.id }), APIErrorCode.ObjectNotFound);
    await setClock(server, NOW);
  });

  test('capabilities, and another connection cannot page a query it did not run', async () => {
    const [view] = (await client().views.list({ database_id: source.databaseId })).results;
    const query = await client().views.queries.create({ view_id: view.id });
    const insertOnly = await addConnection(server, fx.workspaceId, ['insert_content']);
    await admin(server, 'POST', `/connections/${insertOnly.id}/grants`, { object_id: source.databaseId });
    const inserter = new Client({ auth: insertOnly.token, baseUrl: server.url, logger: quiet });
    await rejects(inserter.views.queries.create({ view_id: view.id }), APIErrorCode.RestrictedResource);
    await rejects(inserter.views.queries.results({ view_id: view.id, query_id: query.id }), APIErrorCode.RestrictedResource);

    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${reader.id}/grants`, { object_id: source.databaseId });
    const readerClient = new Client({ auth: reader.token, baseUrl: server.url, logger: quiet });
    await rejects(readerClient.views.queries.results({ view_id: view.id, query_id: query.id }), APIErrorCode.ObjectNotFound);
    assert.equal((await readerClient.views.queries.create({ view_id: view.id })).total_count, CAP);

    const stranger = await addConnection(server, fx.workspaceId, ['read_content']);
    const outsider = new Client({ auth: stranger.token, baseUrl: server.url, logger: quiet });
    await rejects(outsider.views.queries.create({ view_id: view.id }), APIErrorCode.ObjectNotFound);
    await rejects(outsider.views.queries.delete({ view_id: view.id, query_id: query.id }), APIErrorCode.ObjectNotFound);
  });

  /** Each filter's view query tells the count (capped) and completeness the data source's own query gives. */
  async function assertCountsAsQueried(counts: { id: string; databaseId: string }, filters: Json[]): Promise<void> {
    for (const filter of filters) {
      const matches = (await client().dataSources.query({ data_source_id: counts.id, filter } as any)).results.length;
      const view = await client().views.create({ database_id: counts.databaseId, data_source_id: counts.id, name: 'Count', type: 'table', filter } as any);
      const query = await client().views.queries.create({ view_id: view.id });
      assert.equal(query.total_count, Math.min(matches, CAP), JSON.stringify(filter));
      assert.equal(query.request_status?.type, matches > CAP ? 'incomplete' : 'complete', JSON.stringify(filter));
    }
  }

  test('total_count told from index ranges (one condition, an and with negations, text contains) is what the pages give, with pages in the trash', async () => {
    // countListing reads these from the conditions' value rows, which also hold the trashed pages.
    const page = await makeSharedPage(server, fx, 'Counts');
    const counts = await createSource(server, fx.token, page.id, 'Counts', {
      Name: { title: {} },
      Points: { number: {} },
      Tag: { select: { options: [{ name: 'keep' }, { name: 'skip' }] } },
      Done: { checkbox: {} },
    });
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const made = await createPage(server, fx.token, counts.id, {
        Name: { title: text(`p${String(i).padStart(2, '0')}`) },
        Points: { number: i % 5 },
        Tag: { select: { name: i % 3 === 0 ? 'skip' : 'keep' } },
        Done: { checkbox: i % 6 === 0 },
      });
      ids.push(made.id as string);
    }
    for (const i of [1, 2, 4]) await updatePage(server, fx.token, ids[i], { in_trash: true });
    const filters: Json[] = [
      { property: 'Tag', select: { equals: 'keep' } },
      { property: 'Points', number: { equals: 4 } },
      { property: 'Name', title: { contains: '2' } },
      { property: 'Name', title: { contains: 'p' } },
      { property: 'Done', checkbox: { equals: false } },
      {
        and: [
          { property: 'Done', checkbox: { equals: false } },
          { property: 'Points', number: { greater_than: 0 } },
        ],
      },
      {
        and: [
          { property: 'Done', checkbox: { equals: true } },
          { property: 'Tag', select: { does_not_equal: 'keep' } },
        ],
      },
      {
        and: [
          { property: 'Tag', select: { does_not_equal: 'skip' } },
          { property: 'Points', number: { less_than: 3 } },
        ],
      },
    ];
    await assertCountsAsQueried(counts, filters);
  });

  test('total_count of a select or status condition whose rows fall short of the cap plus the trashed pages takes off the trashed pages holding it', async () => {
    // countListing: the option's value rows (property_values_text, which ends in the page since
    // migration 018) less those of trashed pages, counted by seeking each trashed page in that index.
    const page = await makeSharedPage(server, fx, 'Trash counts');
    const counts = await createSource(server, fx.token, page.id, 'Trash counts', {
      Name: { title: {} },
      Tag: { select: { options: [{ name: 'a' }, { name: 'b' }] } },
      Stage: { status: {} },
    });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const made = await createPage(server, fx.token, counts.id, {
        Name: { title: text(`t${String(i).padStart(2, '0')}`) },
        ...(i === 19 ? {} : { Tag: { select: { name: i % 2 === 0 ? 'a' : 'b' } } }),
        Stage: { status: { name: i % 3 === 0 ? 'Done' : 'In progress' } },
      });
      ids.push(made.id as string);
    }
    for (const i of [0, 2, 3, 7, 19]) await updatePage(server, fx.token, ids[i], { in_trash: true });
    const filters: Json[] = [
      { property: 'Tag', select: { equals: 'a' } },
      { property: 'Tag', select: { equals: 'b' } },
      { property: 'Tag', select: { is_not_empty: true } },
      { property: 'Stage', status: { equals: 'Done' } },
      { property: 'Stage', status: { equals: 'Complete' } },
      { property: 'Stage', status: { equals: 'In progress' } },
    ];
    await assertCountsAsQueried(counts, filters);
  });

  test('a linked view lists only the pages the connection can see', async () => {
    // A second connection sees the view's database but, of the data source's pages, only one shared page.
    const page = await makeSharedPage(server, fx, 'Host');
    const host = await createSource(server, fx.token, page.id, 'Host', { Name: { title: {} } });
    const linked = await client().views.create({ database_id: host.databaseId, data_source_id: source.id, name: 'Linked', type: 'table' });
    const limited = await addConnection(server, fx.workspaceId, ['read_content']);
    await admin(server, 'POST', `/connections/${limited.id}/grants`, { object_id: host.databaseId });
    const [visiblePage] = (await client().dataSources.query({ data_source_id: source.id, page_size: 1 })).results;
    await admin(server, 'POST', `/connections/${limited.id}/grants`, { object_id: visiblePage.id });
    const limitedClient = new Client({ auth: limited.token, baseUrl: server.url, logger: quiet });
    const query = await limitedClient.views.queries.create({ view_id: linked.id });
    assert.deepEqual(
      query.results.map((r) => r.id),
      [visiblePage.id],
    );
  });
});

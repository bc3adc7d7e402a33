/**
 * What a view query runs besides the view's filter (FACTS.md §10.8 8.2, 8.6; docs/decisions.md
 * "Views"): its quick filters, ANDed with the filter; the option names its select, status and
 * multi-select conditions may use; and a kept result that is one snapshot, answered before the
 * whole of it is read (src/commands/databaseViews/viewQueries.ts).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { createPage, createSource, expectValidation, ok, text, type Json, type Source } from '../query/helpers.js';

describe('view queries: quick filters, option names, the kept result', () => {
  const { server, fx } = useServer();
  let source: Source;
  const post = (path: string, body: unknown) => call<Json>(server.url, 'POST', path, { token: fx.token, body });
  const patch = (path: string, body: unknown) => call<Json>(server.url, 'PATCH', path, { token: fx.token, body });

  async function makeView(definition: Json): Promise<string> {
    const view = await ok(server, fx.token, 'POST', '/v1/views', {
      database_id: source.databaseId,
      data_source_id: source.id,
      name: 'V',
      type: 'table',
      ...definition,
    });
    return view.id as string;
  }

  /** Every id of a new query of the view, following its cursors, and the query's total_count. */
  async function runView(viewId: string, pageSize = 2): Promise<{ ids: string[]; total: number }> {
    const first = await ok(server, fx.token, 'POST', `/v1/views/${viewId}/queries`, { page_size: pageSize });
    const ids: string[] = first.results.map((r: Json) => r.id);
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const next = await ok(server, fx.token, 'GET', `/v1/views/${viewId}/queries/${first.id}?start_cursor=${cursor}&page_size=${pageSize}`);
      ids.push(...next.results.map((r: Json) => r.id));
      cursor = next.next_cursor;
    }
    return { ids, total: first.total_count };
  }

  async function dataSourceIds(body: Json): Promise<string[]> {
    return (await ok(server, fx.token, 'POST', `/v1/data_sources/${source.id}/query`, body)).results.map((p: Json) => p.id);
  }

  test('setup', async () => {
    const page = await makeSharedPage(server, fx);
    source = await createSource(server, fx.token, page.id, 'Tasks', {
      Name: { title: {} },
      Points: { number: {} },
      Tag: { select: { options: [{ name: 'keep' }, { name: 'skip' }] } },
      Labels: { multi_select: { options: [{ name: 'red' }, { name: 'blue' }] } },
      Stage: { status: {} },
    });
    for (let i = 0; i < 12; i++) {
      await createPage(server, fx.token, source.id, {
        Name: { title: text(`p${String(i).padStart(2, '0')}`) },
        Points: { number: i % 5 },
        Tag: { select: { name: i % 3 === 0 ? 'skip' : 'keep' } },
        Labels: { multi_select: i % 2 === 0 ? [{ name: 'red' }] : [{ name: 'blue' }] },
      });
    }
  });

  test('quick filters are ANDed with the view filter; {} filters nothing; PATCH adds and removes them', async () => {
    const filter = { property: 'Points', number: { greater_than_or_equal_to: 2 } };
    const sorts = [{ property: 'Name', direction: 'ascending' }];
    const viewId = await makeView({ filter, sorts, quick_filters: { Tag: { select: { equals: 'keep' } }, Points: {} } });
    const expected = await dataSourceIds({ filter: { and: [filter, { property: 'Tag', select: { equals: 'keep' } }] }, sorts });
    const unfiltered = await dataSourceIds({ filter, sorts });
    assert.ok(expected.length > 0 && expected.length < unfiltered.length, `${expected.length} of ${unfiltered.length}`);
    const run = await runView(viewId);
    assert.deepEqual(run.ids, expected);
    assert.equal(run.total, expected.length);

    // A second quick filter, by property id, narrows further; removing both gives the view's filter alone.
    const labelsId = source.properties.Labels.id as string;
    assert.equal((await patch(`/v1/views/${viewId}`, { quick_filters: { [labelsId]: { multi_select: { contains: 'red' } } } })).status, 200);
    const narrower = await dataSourceIds({
      filter: { and: [filter, { property: 'Tag', select: { equals: 'keep' } }, { property: 'Labels', multi_select: { contains: 'red' } }] },
      sorts,
    });
    assert.ok(narrower.length < expected.length);
    assert.deepEqual((await runView(viewId)).ids, narrower);
    assert.equal((await patch(`/v1/views/${viewId}`, { quick_filters: null })).status, 200);
    assert.deepEqual((await runView(viewId)).ids, unfiltered);
  });

  test('quick filters add no nesting level: a view filter two levels deep still runs with them', async () => {
    const filter = {
      or: [
        {
          and: [
            { property: 'Points', number: { equals: 0 } },
            { property: 'Tag', select: { equals: 'skip' } },
          ],
        },
        { and: [{ property: 'Points', number: { greater_than: 2 } }] },
      ],
    };
    const quick = { property: 'Labels', multi_select: { contains: 'blue' } };
    const viewId = await makeView({ filter, quick_filters: { Labels: { multi_select: { contains: 'blue' } } } });
    const all = await dataSourceIds({ filter });
    const blue = new Set(await dataSourceIds({ filter: quick }));
    const expected = all.filter((id) => blue.has(id));
    assert.ok(expected.length > 0 && expected.length < all.length);
    assert.deepEqual((await runView(viewId)).ids, expected);
    // Without a view filter, the quick filters alone decide.
    const onlyQuick = await makeView({ quick_filters: { Labels: { multi_select: { contains: 'blue' } } } });
    assert.deepEqual((await runView(onlyQuick)).ids, await dataSourceIds({ filter: quick }));
  });

  test('a filter on an unknown property is a 400 naming the field, in the filter and in quick filters', async () => {
    const base = { database_id: source.databaseId, data_source_id: source.id, name: 'Bad', type: 'table' };
    expectValidation(await post('/v1/views', { ...base, filter: { property: 'Nope', select: { equals: 'keep' } } }), 'body.filter.property');
    expectValidation(
      await post('/v1/views', {
        ...base,
        filter: {
          and: [
            { property: 'Points', number: { equals: 1 } },
            { property: 'Nope', number: { equals: 1 } },
          ],
        },
      }),
      'body.filter.and[1].property',
    );
    expectValidation(await post('/v1/views', { ...base, quick_filters: { Nope: { select: { equals: 'keep' } } } }), 'body.quick_filters.Nope');
    const viewId = await makeView({});
    expectValidation(await patch(`/v1/views/${viewId}`, { filter: { property: 'Nope', checkbox: { equals: true } } }), 'body.filter.property');
  });

  test('select, status and multi-select conditions name options the property has; the error lists them', async () => {
    const base = { database_id: source.databaseId, data_source_id: source.id, name: 'Bad', type: 'table' };
    const bad = await post('/v1/views', { ...base, filter: { property: 'Tag', select: { equals: 'kept' } } });
    expectValidation(bad, 'body.filter.select.equals');
    assert.match(bad.body.message, /"keep", "skip"/);
    assert.match(bad.body.message, /kept/);
    expectValidation(
      await post('/v1/views', { ...base, filter: { and: [{ property: 'Tag', select: { does_not_equal: ['skip', 'gone'] } }] } }),
      'body.filter.and[0].select.does_not_equal[1]',
    );
    expectValidation(
      await post('/v1/views', { ...base, filter: { property: 'Labels', multi_select: { contains: 'green' } } }),
      'body.filter.multi_select.contains',
    );
    expectValidation(await post('/v1/views', { ...base, filter: { property: 'Stage', status: { equals: 'Finished' } } }), 'body.filter.status.equals');
    expectValidation(await post('/v1/views', { ...base, quick_filters: { Tag: { select: { equals: 'kept' } } } }), 'body.quick_filters.Tag.select.equals');
    const viewId = await makeView({});
    expectValidation(await patch(`/v1/views/${viewId}`, { quick_filters: { Tag: { select: { equals: 'kept' } } } }), 'body.quick_filters.Tag.select.equals');

    // Options, arrays of them, status groups and emptiness checks are accepted.
    await makeView({ filter: { property: 'Tag', select: { equals: ['keep', 'skip'] } } });
    await makeView({ filter: { property: 'Stage', status: { equals: 'Complete' } } });
    await makeView({ filter: { property: 'Stage', status: { does_not_equal: 'Done' } } });
    await makeView({ filter: { property: 'Tag', select: { is_empty: true } } });
    // A data-source query is not checked so: a name no option has matches no page.
    assert.deepEqual(await dataSourceIds({ filter: { property: 'Tag', select: { equals: 'kept' } } }), []);
  });

  test('the kept result is one snapshot: pages written while a query runs are in its count and its pages alike, or in neither', async () => {
    const viewId = await makeView({ filter: { property: 'Tag', select: { equals: 'keep' } }, sorts: [{ property: 'Points', direction: 'descending' }] });
    const before = await dataSourceIds({ filter: { property: 'Tag', select: { equals: 'keep' } }, page_size: 100 });
    const writes = Array.from({ length: 4 }, (_, i) =>
      createPage(server, fx.token, source.id, { Name: { title: text(`late${i}`) }, Points: { number: 9 }, Tag: { select: { name: 'keep' } } }),
    );
    const [first] = await Promise.all([ok(server, fx.token, 'POST', `/v1/views/${viewId}/queries`, { page_size: 1 }), ...writes]);
    // Read at once: the rest of the result may still be being kept, and the read waits for it.
    const ids: string[] = first.results.map((r: Json) => r.id);
    let cursor: string | null = first.next_cursor;
    while (cursor) {
      const next = await ok(server, fx.token, 'GET', `/v1/views/${viewId}/queries/${first.id}?start_cursor=${cursor}&page_size=3`);
      ids.push(...next.results.map((r: Json) => r.id));
      cursor = next.next_cursor;
    }
    assert.equal(ids.length, first.total_count);
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(ids.length >= before.length && ids.length <= before.length + 4, `${ids.length} ids, ${before.length} before`);
    const after = await dataSourceIds({ filter: { property: 'Tag', select: { equals: 'keep' } }, sorts: [{ property: 'Points', direction: 'descending' }] });
    // The kept ids are those of the pages that existed at its snapshot, in the query's order.
    assert.deepEqual(
      ids,
      after.filter((id) => ids.includes(id)),
    );
  });

  test('a query deleted at once stays deleted (the delete waits for a result still being kept)', async () => {
    const viewId = await makeView({ sorts: [{ property: 'Name', direction: 'descending' }] });
    const first = await ok(server, fx.token, 'POST', `/v1/views/${viewId}/queries`, { page_size: 1 });
    assert.ok(first.next_cursor);
    assert.deepEqual(await ok(server, fx.token, 'DELETE', `/v1/views/${viewId}/queries/${first.id}`), { object: 'view_query', id: first.id, deleted: true });
    const gone = await call<Json>(server.url, 'GET', `/v1/views/${viewId}/queries/${first.id}?start_cursor=${first.next_cursor}`, { token: fx.token });
    assert.equal(gone.status, 404, JSON.stringify(gone.body));
    assert.equal(gone.body.code, 'object_not_found');
  });
});

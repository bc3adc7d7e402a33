/**
 * Issue 12: the order of a query (docs/decisions.md "Queries (issue 12)"): sorts by property (name
 * or id) and by timestamp, several keys, empty values last in both directions, the default order
 * (creation time, then id); keyset pagination that neither repeats nor skips a row while pages are
 * edited or added between two requests; cursors bound to their filter; `in_trash`. Pages are made
 * over HTTP on the test clock, one minute apart, so creation order is known. SQLite, or PostgreSQL
 * with DATABASE_URL.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { useStore } from '../helpers/useStore.js';
import { makeSharedPage } from '../helpers/factories.js';
import {
  createPage,
  createSource,
  expectValidation,
  Labels,
  NOW,
  query,
  queryAll,
  setClock,
  TEST_CLOCK_ENV,
  text,
  updatePage,
  type Json,
  type Source,
} from './helpers.js';

const minutesAfterNow = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

describe('query order, pagination and trash', () => {
  const { server, fx } = useServer({ env: TEST_CLOCK_ENV });
  const store = useStore(server);
  let root: Json;
  /** Each page gets its own minute, so creation order is the order pages are made in. */
  let minute = 0;
  const tick = () => setClock(server, minutesAfterNow(++minute));

  before(async () => {
    await setClock(server, NOW);
    root = await makeSharedPage(server, fx);
  });

  const listed = async (labels: Labels, source: Source, body: Json = {}) => labels.of(await queryAll(server, fx.token, source.id, body));

  /*
   *        Name         Score  Kind  When
   *   s1   banana       3      Low   2024-01-05
   *   s2   Apple        1      High  —
   *   s3   cherry       —      Mid   2024-01-01
   *   s4   apple pie    3      —     2024-01-03
   *   s5   (empty)      2      High  2024-01-02
   * Kind's options are High, Mid, Low in the schema; Tenfold is Score × 10.
   */
  describe('sorts', () => {
    const labels = new Labels();
    let source: Source;
    before(async () => {
      source = await createSource(server, fx.token, root.id, 'Sorted', {
        Name: { title: {} },
        Score: { number: {} },
        Kind: { select: { options: [{ name: 'High' }, { name: 'Mid' }, { name: 'Low' }] } },
        When: { date: {} },
        Note: { rich_text: {} },
        Tenfold: { formula: { expression: 'prop("Score") * 10' } },
      });
      const rows: Array<[string, string, number | null, string | null, string | null]> = [
        ['s1', 'banana', 3, 'Low', '2024-01-05'],
        ['s2', 'Apple', 1, 'High', null],
        ['s3', 'cherry', null, 'Mid', '2024-01-01'],
        ['s4', 'apple pie', 3, null, '2024-01-03'],
        ['s5', '', 2, 'High', '2024-01-02'],
      ];
      for (const [label, name, score, kind, when] of rows) {
        await tick();
        const page = await createPage(server, fx.token, source.id, {
          Name: { title: name ? text(name) : [] },
          ...(score === null ? {} : { Score: { number: score } }),
          ...(kind === null ? {} : { Kind: { select: { name: kind } } }),
          ...(when === null ? {} : { When: { date: { start: when } } }),
        });
        labels.add(label, page.id);
      }
    });

    test('no sorts: creation time ascending', async () => {
      assert.deepEqual(await listed(labels, source), ['s1', 's2', 's3', 's4', 's5']);
    });

    const cases: Array<[Json[], string[]]> = [
      [[{ property: 'Score', direction: 'ascending' }], ['s2', 's5', 's1', 's4', 's3']],
      [[{ property: 'Score', direction: 'descending' }], ['s1', 's4', 's5', 's2', 's3']],
      // Text folds case, then compares code points; the empty title is last both ways.
      [[{ property: 'Name', direction: 'ascending' }], ['s2', 's4', 's1', 's3', 's5']],
      [[{ property: 'Name', direction: 'descending' }], ['s3', 's1', 's4', 's2', 's5']],
      // Select by the option's position in the schema, not by its name.
      [[{ property: 'Kind', direction: 'ascending' }], ['s2', 's5', 's3', 's1', 's4']],
      [[{ property: 'Kind', direction: 'descending' }], ['s1', 's3', 's2', 's5', 's4']],
      [[{ property: 'When', direction: 'ascending' }], ['s3', 's5', 's4', 's1', 's2']],
      [[{ property: 'When', direction: 'descending' }], ['s1', 's4', 's5', 's3', 's2']],
      [[{ property: 'Tenfold', direction: 'ascending' }], ['s2', 's5', 's1', 's4', 's3']],
      // Earlier keys first; ties left by every key fall back to creation order.
      [
        [
          { property: 'Score', direction: 'descending' },
          { property: 'Name', direction: 'ascending' },
        ],
        ['s4', 's1', 's5', 's2', 's3'],
      ],
      [
        [
          { property: 'Kind', direction: 'ascending' },
          { property: 'Score', direction: 'descending' },
        ],
        ['s5', 's2', 's3', 's1', 's4'],
      ],
      [[{ property: 'Note', direction: 'descending' }], ['s1', 's2', 's3', 's4', 's5']],
      [[{ timestamp: 'created_time', direction: 'descending' }], ['s5', 's4', 's3', 's2', 's1']],
      [
        [
          { property: 'Kind', direction: 'descending' },
          { timestamp: 'created_time', direction: 'descending' },
        ],
        ['s1', 's3', 's5', 's2', 's4'],
      ],
    ];
    for (const [sorts, expected] of cases) {
      test(`sorts ${JSON.stringify(sorts)}`, async () => {
        assert.deepEqual(await listed(labels, source, { sorts }), expected);
        // Page by page, the same order.
        assert.deepEqual(await listed(labels, source, { sorts, page_size: 2 }), expected);
      });
    }

    test('a property by its id sorts as by its name', async () => {
      for (const name of ['Score', 'Kind', 'Name']) {
        const byName = await listed(labels, source, { sorts: [{ property: name, direction: 'descending' }] });
        const byId = await listed(labels, source, { sorts: [{ property: source.properties[name].id, direction: 'descending' }] });
        assert.deepEqual(byId, byName, name);
      }
    });

    test('sorts and a filter together', async () => {
      const body = { filter: { property: 'Score', number: { is_not_empty: true } }, sorts: [{ property: 'When', direction: 'ascending' }] };
      assert.deepEqual(await listed(labels, source, body), ['s5', 's4', 's1', 's2']);
    });

    test('an unknown sort property is a validation error', async () => {
      expectValidation(await query(server, fx.token, source.id, { sorts: [{ property: 'Nope', direction: 'ascending' }] }), /body\.sorts\[0\]/);
      const bad = await query(server, fx.token, source.id, {
        sorts: [
          { property: 'Score', direction: 'ascending' },
          { timestamp: 'created_time', direction: 'up' },
        ],
      });
      expectValidation(bad, /body\.sorts\[1\]/);
    });

    test('last_edited_time follows an edit', async () => {
      await tick();
      await updatePage(server, fx.token, labels.id('s2'), { properties: { Note: { rich_text: text('edited') } } });
      assert.deepEqual(await listed(labels, source, { sorts: [{ timestamp: 'last_edited_time', direction: 'ascending' }] }), ['s1', 's3', 's4', 's5', 's2']);
      assert.deepEqual(await listed(labels, source, { sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }] }), ['s2', 's5', 's4', 's3', 's1']);
    });
  });

  test('pages made at the same instant: creation time, then id', async () => {
    const source = await createSource(server, fx.token, root.id, 'Ties', { Name: { title: {} }, Score: { number: {} } });
    await tick();
    const made: string[] = [];
    for (let i = 0; i < 8; i++) made.push((await createPage(server, fx.token, source.id, { Name: { title: text(`tie ${i}`) }, Score: { number: 1 } })).id);
    // The stored creation times, to the millisecond: the order must follow them and then the id.
    const rows = await store.db.selectFrom('objects').select(['id', 'created_time']).where('parent_id', '=', source.id).execute();
    assert.equal(rows.length, made.length);
    const expected = rows
      .sort((a, b) => (a.created_time === b.created_time ? (a.id < b.id ? -1 : 1) : a.created_time < b.created_time ? -1 : 1))
      .map((r) => r.id);
    const ids = async (body: Json) => (await queryAll(server, fx.token, source.id, body)).map((p) => p.id as string);
    assert.deepEqual(await ids({}), expected);
    assert.deepEqual(await ids({ page_size: 3 }), expected);
    // Every sort key ties: the same fallback.
    assert.deepEqual(await ids({ sorts: [{ property: 'Score', direction: 'descending' }], page_size: 3 }), expected);
  });

  // A sort led by a number or a date reads the pages with a value from its index, then the pages
  // without one (queryPages.ts, sortedFromIndex): cursors land in either half, and a filter the
  // statement tests row by row (text contains: no index set) rides along.
  test('a sort led by an indexed value: pages with one in order, then the empty ones, page by page', async () => {
    const labels = new Labels();
    const source = await createSource(server, fx.token, root.id, 'Halves', { Name: { title: {} }, Score: { number: {} }, Due: { date: {} } });
    const rows: Array<[string, number | null, string | null]> = [
      ['h1', 5, '2024-02-01'],
      ['h2', null, null],
      ['h3', 2, '2024-01-01T10:00:00.000Z'],
      ['h4', null, '2024-01-15'],
      ['h5', 5, null],
      ['h6', 7, '2024-01-01T09:00:00.000Z'],
      ['h7', null, null],
    ];
    for (const [label, score, due] of rows) {
      await tick();
      const page = await createPage(server, fx.token, source.id, {
        Name: { title: text(`x ${label}`) },
        ...(score === null ? {} : { Score: { number: score } }),
        ...(due === null ? {} : { Due: { date: { start: due } } }),
      });
      labels.add(label, page.id);
    }
    const cases: Array<[Json, string[]]> = [
      [{ sorts: [{ property: 'Score', direction: 'descending' }] }, ['h6', 'h1', 'h5', 'h3', 'h2', 'h4', 'h7']],
      [{ sorts: [{ property: 'Score', direction: 'ascending' }] }, ['h3', 'h1', 'h5', 'h6', 'h2', 'h4', 'h7']],
      // Ties of the first key and the empty half both follow the later keys.
      [
        {
          sorts: [
            { property: 'Score', direction: 'ascending' },
            { timestamp: 'created_time', direction: 'descending' },
          ],
        },
        ['h3', 'h5', 'h1', 'h6', 'h7', 'h4', 'h2'],
      ],
      [{ sorts: [{ property: 'Due', direction: 'ascending' }] }, ['h6', 'h3', 'h4', 'h1', 'h2', 'h5', 'h7']],
      [{ sorts: [{ property: 'Due', direction: 'descending' }] }, ['h1', 'h4', 'h3', 'h6', 'h2', 'h5', 'h7']],
      [
        { sorts: [{ property: 'Score', direction: 'descending' }], filter: { property: 'Name', title: { contains: 'x h' } } },
        ['h6', 'h1', 'h5', 'h3', 'h2', 'h4', 'h7'],
      ],
      [
        {
          sorts: [{ property: 'Score', direction: 'descending' }],
          filter: {
            or: [
              { property: 'Due', date: { is_empty: true } },
              { property: 'Score', number: { less_than: 3 } },
            ],
          },
        },
        ['h5', 'h3', 'h2', 'h7'],
      ],
    ];
    for (const [body, expected] of cases) {
      for (const pageSize of [1, 2, 3, 100]) {
        assert.deepEqual(await listed(labels, source, { ...body, page_size: pageSize }), expected, `${JSON.stringify(body)} page_size ${pageSize}`);
      }
    }
  });

  describe('pagination', () => {
    const SCORES = [5, 3, 5, 1, 3, 5, 2, 2, 4, 1, 3];
    /** A data source of eleven pages q01..q11 with SCORES, made a minute apart. */
    const paged = async (title: string) => {
      const labels = new Labels();
      const source = await createSource(server, fx.token, root.id, title, { Name: { title: {} }, Score: { number: {} } });
      for (const [i, score] of SCORES.entries()) {
        await tick();
        const label = `q${String(i + 1).padStart(2, '0')}`;
        labels.add(label, (await createPage(server, fx.token, source.id, { Name: { title: text(label) }, Score: { number: score } })).id);
      }
      return { labels, source };
    };
    const CREATED = SCORES.map((_, i) => `q${String(i + 1).padStart(2, '0')}`);
    const BY_SCORE = ['q04', 'q10', 'q07', 'q08', 'q02', 'q05', 'q11', 'q09', 'q01', 'q03', 'q06'];
    const ascending = [{ property: 'Score', direction: 'ascending' }];

    test('page sizes 1, 2 and 3 give the whole listing once, in order', async () => {
      const { labels, source } = await paged('Paged');
      assert.deepEqual(await listed(labels, source), CREATED);
      assert.deepEqual(await listed(labels, source, { sorts: ascending }), BY_SCORE);
      for (const page_size of [1, 2, 3]) {
        assert.deepEqual(await listed(labels, source, { page_size }), CREATED, `page_size ${page_size}`);
        assert.deepEqual(await listed(labels, source, { page_size, sorts: ascending }), BY_SCORE, `page_size ${page_size}, by score`);
        const filter = { property: 'Score', number: { greater_than: 2 } };
        const expected = BY_SCORE.filter((l) => SCORES[CREATED.indexOf(l)] > 2);
        assert.deepEqual(await listed(labels, source, { page_size, filter, sorts: ascending }), expected, `page_size ${page_size}, filtered`);
      }
      const first = await query(server, fx.token, source.id, { page_size: 11 });
      assert.equal(first.body.results.length, 11);
      assert.equal(first.body.has_more, false);
      assert.equal(first.body.next_cursor, null);
    });

    /** Pages through a listing, calling `between` after the first page. */
    const pageThrough = async (labels: Labels, source: Source, body: Json, between: () => Promise<void>) => {
      const seen: string[] = [];
      let res = await query(server, fx.token, source.id, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      seen.push(...labels.of(res.body.results));
      await between();
      while (res.body.has_more) {
        res = await query(server, fx.token, source.id, { ...body, start_cursor: res.body.next_cursor });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        seen.push(...labels.of(res.body.results));
      }
      return seen;
    };

    test('edits and new pages between two pages of the default order: nothing repeats or is skipped', async () => {
      const { labels, source } = await paged('Edited');
      const seen = await pageThrough(labels, source, { page_size: 3 }, async () => {
        await tick();
        await updatePage(server, fx.token, labels.id('q02'), { properties: { Score: { number: 99 }, Name: { title: text('q02 again') } } });
        await updatePage(server, fx.token, labels.id('q07'), { properties: { Score: { number: 0 } } });
        await tick();
        labels.add('q12', (await createPage(server, fx.token, source.id, { Name: { title: text('q12') } })).id);
      });
      // New pages land at the end.
      assert.deepEqual(seen, [...CREATED, 'q12']);
    });

    test('edits between two pages of a sorted listing: rows that keep their place come once, in order', async () => {
      const { labels, source } = await paged('Sorted and edited');
      const moved = new Set(['q04', 'q09']);
      const seen = await pageThrough(labels, source, { page_size: 3, sorts: ascending }, async () => {
        await tick();
        // Sort keys unchanged: q10 already listed, q08 not yet.
        await updatePage(server, fx.token, labels.id('q10'), { properties: { Name: { title: text('q10 renamed') } } });
        await updatePage(server, fx.token, labels.id('q08'), { properties: { Name: { title: text('q08 renamed') } } });
        // Moved: q04 (listed) to the end, q09 (not yet listed) before the cursor.
        await updatePage(server, fx.token, labels.id('q04'), { properties: { Score: { number: 6 } } });
        await updatePage(server, fx.token, labels.id('q09'), { properties: { Score: { number: 0 } } });
      });
      assert.deepEqual(
        seen.filter((l) => !moved.has(l)),
        BY_SCORE.filter((l) => !moved.has(l)),
      );
    });

    test('a cursor belongs to its filter', async () => {
      const { source } = await paged('Cursors');
      const filter = { property: 'Score', number: { greater_than: 1 } };
      const first = await query(server, fx.token, source.id, { filter, page_size: 2 });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const cursor = first.body.next_cursor;
      assert.equal(typeof cursor, 'string');
      const same = await query(server, fx.token, source.id, { filter, page_size: 2, start_cursor: cursor });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      const other = { property: 'Score', number: { less_than: 5 } };
      expectValidation(await query(server, fx.token, source.id, { filter: other, page_size: 2, start_cursor: cursor }), 'body.start_cursor');
      expectValidation(await query(server, fx.token, source.id, { page_size: 2, start_cursor: cursor }), 'body.start_cursor');
      expectValidation(await query(server, fx.token, source.id, { start_cursor: 'not-a-cursor' }), 'body.start_cursor');
    });
  });

  test('in_trash: false (the default) lists pages outside the trash, true the pages in it', async () => {
    const labels = new Labels();
    const source = await createSource(server, fx.token, root.id, 'Trash', { Name: { title: {} }, Score: { number: {} } });
    for (const [i, label] of ['r1', 'r2', 'r3', 'r4'].entries()) {
      await tick();
      labels.add(label, (await createPage(server, fx.token, source.id, { Name: { title: text(label) }, Score: { number: i } })).id);
    }
    for (const label of ['r2', 'r4']) await updatePage(server, fx.token, labels.id(label), { in_trash: true });
    assert.deepEqual(await listed(labels, source), ['r1', 'r3']);
    assert.deepEqual(await listed(labels, source, { in_trash: false }), ['r1', 'r3']);
    const trashed = await queryAll(server, fx.token, source.id, { in_trash: true });
    assert.deepEqual(labels.of(trashed), ['r2', 'r4']);
    assert.ok(trashed.every((p) => p.in_trash === true));
    assert.deepEqual(await listed(labels, source, { in_trash: true, filter: { property: 'Score', number: { greater_than: 2 } } }), ['r4']);
    assert.deepEqual(await listed(labels, source, { in_trash: true, page_size: 1, sorts: [{ property: 'Score', direction: 'descending' }] }), ['r4', 'r2']);
    // Restored, a page is listed again.
    await updatePage(server, fx.token, labels.id('r2'), { in_trash: false });
    assert.deepEqual(await listed(labels, source), ['r1', 'r2', 'r3']);
  });
});

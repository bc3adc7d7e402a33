/**
 * Paging through 1,000 search results while the workspace changes (issue 4, acceptance): every
 * object that exists throughout appears exactly once, whatever is renamed, edited or created
 * between or during the page requests. Two connections exercise both plans of the search
 * repository: "wide" reaches more than 5,000 objects (ordered plan, with the server's threshold set
 * to 5,000 by FOLIO_SEARCH_VISIBLE_FIRST_BELOW), "narrow" about 1,000 (visible-first plan). Runs on SQLite, and on PostgreSQL when DATABASE_URL is set.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { addConnection } from '../helpers/factories.js';
import { useContentWriter } from './helpers.js';

type Json = Record<string, any>;

const ALPHA = 1000;
const BETA = 4100;

describe('search pagination under concurrent edits', () => {
  const { server, fx } = useServer({ env: { FOLIO_SEARCH_VISIBLE_FIRST_BELOW: '5000' } });
  const { store, writer } = useContentWriter(server, fx);
  let narrow: Json;
  let folderId: string;
  let alphaIds: string[];
  let rootId: string;
  let counter = 0;

  const search = (token: string, body: Json) => call<Json>(server.url, 'POST', '/v1/search', { token, body });

  before(async () => {
    narrow = await addConnection(server, fx.workspaceId, ['read_content']);
    rootId = await writer.page('Root');
    folderId = await writer.page('Folder', { type: 'page_id', id: rootId });
    // Alpha and beta pages interleave in time, so a query for alpha skips most of the index.
    alphaIds = [];
    for (let chunk = 0; chunk < 10; chunk++) {
      alphaIds.push(
        ...(await writer.pages(
          Array.from({ length: ALPHA / 10 }, (_, i) => `Alpha item ${chunk * 100 + i}`),
          { type: 'page_id', id: folderId },
        )),
      );
      await writer.pages(
        Array.from({ length: BETA / 10 }, (_, i) => `Beta item ${chunk * 410 + i}`),
        { type: 'page_id', id: rootId },
      );
    }
    await writer.grant(fx.connection.id, rootId);
    await writer.grant(narrow.id, folderId);
  });

  const randomOf = <T>(list: readonly T[], n: number): T[] => Array.from({ length: n }, () => list[Math.floor(Math.random() * list.length)]);

  /** Renames, touches and creates while a page request is in flight. */
  async function editSome(): Promise<void> {
    for (const id of randomOf(alphaIds, 5)) await writer.rename(id, `Alpha item renamed ${counter++}`);
    for (const id of randomOf(alphaIds, 5)) await writer.touch(id);
    await writer.pages(
      Array.from({ length: 3 }, () => `Alpha created ${counter++}`),
      { type: 'page_id', id: folderId },
    );
  }

  async function pageThrough(token: string, body: Json, pageSize: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const request = search(token, { ...body, page_size: pageSize, ...(cursor ? { start_cursor: cursor } : {}) });
      // Later requests race the edits: some land before the request reads, some after. The first
      // does not, so that what its snapshot holds is known.
      const [res] = await Promise.all([request, pages > 0 ? editSome() : Promise.resolve()]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const results = res.body.results as Json[];
      assert.ok(results.length <= pageSize);
      seen.push(...results.map((r) => r.id as string));
      assert.equal(res.body.has_more, res.body.next_cursor !== null);
      cursor = res.body.next_cursor;
      if (!cursor) return seen;
    }
    assert.fail('the listing never ended');
  }

  function assertExactlyOnce(seen: readonly string[], expected: readonly string[]): void {
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no object appears twice');
    const missing = expected.filter((id) => !counts.has(id));
    assert.deepEqual(missing, [], 'no object that existed throughout is skipped');
    const extra = seen.filter((id) => !expected.includes(id));
    assert.deepEqual(extra, [], 'the listing is the one of its first page: later objects are not in it');
  }

  for (const [label, connection] of [
    ['wide (ordered plan)', () => fx.token],
    ['narrow (visible-first plan)', () => narrow.token],
  ] as const) {
    for (const direction of ['descending', 'ascending']) {
      test(`${label}, ${direction}: 1,000+ matches in pages of 100, edited and extended meanwhile`, async () => {
        const body = { query: 'alpha', sort: { timestamp: 'last_edited_time', direction } };
        // Earlier tests created and renamed pages: the listing before this one starts is the reference.
        const expected = await collect(connection(), body);
        assert.ok(expected.length >= ALPHA);
        const seen = await pageThrough(connection(), body, 100);
        assert.equal(seen.length, expected.length);
        assertExactlyOnce(seen, expected);
      });
    }

    test(`${label}: no query, odd page size`, async () => {
      const expected = await collect(connection(), {});
      assert.ok(expected.length > ALPHA);
      const seen = await pageThrough(connection(), {}, 97);
      assert.equal(seen.length, expected.length);
      assertExactlyOnce(seen, expected);
    });
  }

  async function collect(token: string, body: Json): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: Json } = await search(token, { ...body, page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) });
      ids.push(...(res.body.results as Json[]).map((r) => r.id as string));
      cursor = res.body.next_cursor;
    } while (cursor);
    return ids;
  }

  test('an edit committed after the first page is not seen by later pages; a new listing sees it', async () => {
    const first = await search(fx.token, { query: 'alpha', page_size: 10 });
    const unseen = alphaIds.filter((id) => !(first.body.results as Json[]).some((r) => r.id === id)).slice(0, 3);
    for (const id of unseen) await writer.rename(id, `Omega ${id}`);
    const rest = await collectFrom(fx.token, { query: 'alpha' }, first.body.next_cursor);
    for (const id of unseen) assert.ok(rest.includes(id), 'still listed where it was: the listing is as of its first page');
    const fresh = await collect(fx.token, { query: 'alpha' });
    for (const id of unseen) assert.ok(!fresh.includes(id), 'a new listing sees the new title');
    assert.equal((await search(fx.token, { query: 'omega' })).body.results.length, 3);
  });

  test('a transaction open while the first page is read and committed before the next is left out of the whole listing', async () => {
    const expected = await collect(fx.token, { query: 'alpha' });
    const target = expected[expected.length - 1];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const open = store.transaction(async (trx) => {
      await trx.updateTable('objects').set({ title: 'Moved in an open transaction', last_edited_time: writer.tick() }).where('id', '=', target).execute();
      entered();
      await gate;
    });
    await inside;
    const first = await search(fx.token, { query: 'alpha', page_size: 50 });
    release();
    await open;
    const rest = await collectFrom(fx.token, { query: 'alpha' }, first.body.next_cursor);
    const seen = [...(first.body.results as Json[]).map((r) => r.id as string), ...rest];
    assertExactlyOnce(seen, expected);
    assert.equal(seen[seen.length - 1], target, 'listed once, where it was when the listing began');
    assert.ok(!(await collect(fx.token, { query: 'alpha' })).includes(target), 'a new listing sees the commit');
  });

  async function collectFrom(token: string, body: Json, cursor: string | null): Promise<string[]> {
    const ids: string[] = [];
    while (cursor) {
      const res: { body: Json } = await search(token, { ...body, page_size: 100, start_cursor: cursor });
      ids.push(...(res.body.results as Json[]).map((r) => r.id as string));
      cursor = res.body.next_cursor;
    }
    return ids;
  }

  test('page_size defaults to 100 and may be 100 at most', async () => {
    const res = await search(fx.token, { query: 'alpha' });
    assert.equal(res.body.results.length, 100);
    assert.equal(res.body.has_more, true);
    assert.equal((await search(fx.token, { query: 'alpha', page_size: 100 })).body.results.length, 100);
    assert.equal((await search(fx.token, { query: 'alpha', page_size: 3 })).body.results.length, 3);
    const big = await search(fx.token, { page_size: 101 });
    assert.equal(big.status, 400);
    assert.match(big.body.message, /body\.page_size should be ≤ `100`/);
  });

  test('start_cursor null is the first page', async () => {
    const res = await search(fx.token, { query: 'alpha', page_size: 5, start_cursor: null });
    assert.equal(res.status, 200);
    assert.equal(res.body.results.length, 5);
  });
});

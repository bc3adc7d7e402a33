/**
 * Issue 12: the 10,000-result cap of a query (FACTS.md §3; docs/decisions.md "Queries (issue
 * 12)"). A data source of 10,050 pages, written below the API in a few multi-row statements:
 * through POST /v1/pages they took about 13 ms each on SQLite and over 20 ms on PostgreSQL, page
 * by page in process still several ms (one commit each). The pages are what a command leaves
 * (object row, closure rows, title value), one millisecond apart so their order is known.
 * SQLite, or PostgreSQL with DATABASE_URL.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { useStore } from '../helpers/useStore.js';
import { makeSharedPage } from '../helpers/factories.js';
import { newId } from '../../src/ids/ids.js';
import { textItem } from '../../src/domain/richText.js';
import type { Store } from '../../src/storage/createStore.js';
import type { NewObject } from '../../src/storage/schema.js';
import { assertListShape, createSource, query, type Json, type Source } from './helpers.js';

const CAP = 10_000;
const PAGES = CAP + 50;
const FIRST_CREATED = Date.parse('2024-01-01T00:00:00.000Z');
/** Rows per statement: 17 columns × 500 stays below SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/** Writes `count` title-only pages into a data source, in creation order; returns their ids. */
async function seedPages(store: Store, source: Source, workspaceId: string, actorId: string, count: number): Promise<string[]> {
  const titleId = Object.values(source.properties).find((p) => p.type === 'title')!.id as string;
  const ancestors = await store.db.selectFrom('object_ancestors').select(['ancestor_id', 'depth']).where('descendant_id', '=', source.id).execute();
  const ids: string[] = [];
  await store.transaction(async (trx) => {
    for (let start = 0; start < count; start += CHUNK) {
      const objects: NewObject[] = [];
      for (let i = start; i < Math.min(count, start + CHUNK); i++) {
        const at = new Date(FIRST_CREATED + i).toISOString();
        const id = newId();
        ids.push(id);
        objects.push({
          id,
          workspace_id: workspaceId,
          object: 'page',
          type: null,
          parent_type: 'data_source_id',
          parent_id: source.id,
          position: i,
          title: `p${i}`,
          content: JSON.stringify({ icon: null, cover: null }),
          in_trash: 0,
          trashed: 0,
          is_locked: 0,
          is_archived: 0,
          created_time: at,
          created_by: actorId,
          last_edited_time: at,
          last_edited_by: actorId,
        });
      }
      await trx.insertInto('objects').values(objects).execute();
      await trx
        .insertInto('object_ancestors')
        .values(
          objects.flatMap((o) => [
            { ancestor_id: o.id, descendant_id: o.id, depth: 0 },
            ...ancestors.map((a) => ({ ...a, descendant_id: o.id, depth: a.depth + 1 })),
          ]),
        )
        .execute();
      await trx
        .insertInto('property_values')
        .values(
          objects.map((o) => ({
            page_id: o.id,
            property_id: titleId,
            data_source_id: source.id,
            value: JSON.stringify({ type: 'title', title: [textItem(o.title)] }),
            text_value: o.title,
          })),
        )
        .execute();
    }
  });
  return ids;
}

describe('the 10,000-result cap', () => {
  const { server, fx } = useServer();
  const store = useStore(server);
  let source: Source;
  let seeded: string[];

  before(async () => {
    const root = await makeSharedPage(server, fx);
    source = await createSource(server, fx.token, root.id, 'Ten thousand', { Name: { title: {} } });
    seeded = await seedPages(store, source, fx.workspaceId, fx.connection.bot_id, PAGES);
  });

  const page = async (body: Json) => {
    const res = await query(server, fx.token, source.id, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  test('a listing stops at 10,000: the page that reaches it says so; a cursor before it goes on from there', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let cursorAt9900: string | undefined;
    for (let n = 1; ; n++) {
      const body = await page({ page_size: 100, ...(cursor ? { start_cursor: cursor } : {}) });
      ids.push(...body.results.map((p: Json) => p.id as string));
      if (ids.length < CAP) {
        assertListShape(body);
        assert.equal(body.results.length, 100, `page ${n}`);
        assert.equal(body.has_more, true, `page ${n}`);
        cursor = body.next_cursor;
        if (ids.length === CAP - 100) cursorAt9900 = cursor;
        continue;
      }
      assertListShape(body, { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' });
      assert.equal(n, 100);
      assert.equal(body.results.length, 100);
      assert.equal(body.has_more, false);
      assert.equal(body.next_cursor, null);
      break;
    }
    // The first 10,000 in creation order, each once.
    assert.equal(new Set(ids).size, CAP);
    assert.deepEqual(ids, seeded.slice(0, CAP));

    // From 9,900 with another page size: the cap falls inside a page, which is cut short.
    const before = await page({ page_size: 70, start_cursor: cursorAt9900 });
    assertListShape(before);
    assert.equal(before.results.length, 70);
    assert.equal(before.has_more, true);
    const last = await page({ page_size: 70, start_cursor: before.next_cursor });
    assertListShape(last, { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' });
    assert.equal(last.results.length, 30);
    assert.equal(last.has_more, false);
    assert.equal(last.next_cursor, null);
    assert.deepEqual(
      [...before.results, ...last.results].map((p: Json) => p.id),
      seeded.slice(CAP - 100, CAP),
    );
  });

  test('a listing under the cap is complete', async () => {
    // The last 50 pages by creation time: a filter that leaves fewer than 10,000.
    const filter = { timestamp: 'created_time', created_time: { on_or_after: new Date(FIRST_CREATED + CAP).toISOString() } };
    const body = await page({ filter });
    assertListShape(body);
    assert.equal(body.has_more, false);
    assert.deepEqual(
      body.results.map((p: Json) => p.id),
      seeded.slice(CAP),
    );
  });
});

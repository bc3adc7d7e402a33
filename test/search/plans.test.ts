/**
 * The search repository's two plans (ordered, visible first) against an oracle computed in
 * JavaScript from the objects, the closure and the grants: same hits, same order, same pages,
 * for random trees, titles, shares, filters, directions and queries of every length, including
 * LIKE metacharacters and letters beyond ASCII. Runs on SQLite, and on PostgreSQL when
 * DATABASE_URL is set.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { useServer } from '../helpers/useServer.js';
import { addConnection } from '../helpers/factories.js';
import type { ObjectRow } from '../../src/storage/schema.js';
import { fewMatchesCap, findSearchHits, type SearchCriteria, type SearchPlan } from '../../src/storage/repositories/search.js';
import { foldTitle } from '../../src/storage/titleFolding.js';
import { useContentWriter, WORKSPACE, type Parent } from './helpers.js';

// Letters whose lower case JavaScript, SQLite's trigram tokenizer and PostgreSQL's lower() agree on.
const WORDS = ['Alpha', 'beta', 'GAMMA', 'Épée', 'öl', '50%', 'a_b', 'c\\d', 'x', 'meeting notes', 'Notes', 'ÖLAND'];
const QUERIES = [
  null,
  'a',
  'e',
  'AL',
  'alp',
  'é',
  'ÉPÉE',
  'pée',
  '%',
  '_',
  '\\',
  '0%',
  'a_b',
  'c\\d',
  'meeting',
  'zzz',
  'ö',
  'ÖL',
  ' ',
  'notes m',
  'S M',
  'x ',
];

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('search plans agree with an oracle', () => {
  const { server, fx } = useServer();
  const { store, writer } = useContentWriter(server, fx);
  const connections: string[] = [];
  const random = seeded(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  before(async () => {
    const title = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS)).join(' ');
    const pages: string[] = [];
    const sources: string[] = [];
    const all: string[] = [];
    const parentOf = (): Parent => {
      const roll = random();
      if (pages.length === 0 || roll < 0.08) return WORKSPACE;
      if (roll < 0.3 && sources.length) return { type: 'data_source_id', id: pick(sources) };
      return { type: 'page_id', id: pick(pages) };
    };
    for (let i = 0; i < 260; i++) {
      const roll = random();
      if (roll < 0.06 && pages.length) {
        const { databaseId, dataSourceId } = await writer.dataSource(title(), { type: 'page_id', id: pick(pages) }, { linked: random() < 0.3 });
        sources.push(dataSourceId);
        all.push(databaseId, dataSourceId);
      } else if (roll < 0.12 && pages.length) {
        all.push(await writer.block(pick(pages), title()));
      } else {
        const id = await writer.page(title(), parentOf());
        pages.push(id);
        all.push(id);
      }
    }
    // Moves change what is under a share after the index rows exist (search_scope follows them).
    for (let i = 0; i < 15; i++) {
      const [id, target] = [pick(pages), pick(pages)];
      await writer.move(id, { type: 'page_id', id: target }).catch((error: Error) => {
        if (!/descendants/.test(error.message)) throw error;
      });
    }
    for (let i = 0; i < 12; i++) await writer.trash(pick(pages));
    for (let i = 0; i < 10; i++) await writer.touch(pick(all));
    for (let i = 0; i < 10; i++) await writer.rename(pick(pages), title());
    for (let c = 0; c < 3; c++) {
      const connection = await addConnection(server, fx.workspaceId, ['read_content']);
      connections.push(connection.id);
      for (let g = 0; g < 1 + c * 2; g++) await writer.grant(connection.id, pick(all));
    }
    const everything = await addConnection(server, fx.workspaceId, ['read_content']);
    connections.push(everything.id);
    for (const id of all) await writer.grant(everything.id, id);
  });

  async function oracle(criteria: Omit<SearchCriteria, 'snapshot' | 'after' | 'limit'>): Promise<string[]> {
    const db = store.db;
    const objects: ObjectRow[] = await db.selectFrom('objects').selectAll().where('workspace_id', '=', fx.workspaceId).execute();
    const granted = new Set(
      (await db.selectFrom('grants').select('object_id').where('connection_id', '=', criteria.connectionId).execute()).map((g) => g.object_id),
    );
    const closure = await db.selectFrom('object_ancestors').selectAll().execute();
    const visible = new Set(closure.filter((a) => granted.has(a.ancestor_id)).map((a) => a.descendant_id));
    const needle = criteria.query ? foldTitle(criteria.query) : null;
    return objects
      .filter((o) => o.object === 'page' || (o.object === 'data_source' && JSON.parse(o.content).linked !== true))
      .filter((o) => visible.has(o.id))
      .filter((o) => o.in_trash === (criteria.inTrash ? 1 : 0))
      .filter((o) => criteria.object === null || o.object === criteria.object)
      .filter((o) => needle === null || foldTitle(o.title).includes(needle))
      .sort((a, b) => (a.last_edited_time < b.last_edited_time ? 1 : -1) * (criteria.direction === 'descending' ? 1 : -1))
      .map((o) => o.id);
  }

  async function pageAll(criteria: Omit<SearchCriteria, 'snapshot' | 'after' | 'limit'>, plan: SearchPlan, pageSize: number): Promise<string[]> {
    // The first page reads the index as it is now and says at which snapshot; the rest read at it.
    let snapshot: string | null = null;
    const ids: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 500; i++) {
      const found = await findSearchHits(store.db, { ...criteria, snapshot, after, limit: pageSize + 1 }, { plan });
      const hits = found.hits;
      if (hits.length > 0) assert.ok(found.snapshot !== null && (snapshot === null || found.snapshot === snapshot), 'hits come with the snapshot read');
      snapshot = found.snapshot;
      const page = hits.slice(0, pageSize);
      ids.push(...page.map((h) => h.objectId));
      if (hits.length <= pageSize) return ids;
      after = page[page.length - 1].seq;
    }
    assert.fail('paging never ended');
  }

  test('both plans return the oracle’s hits in its order, page by page', async () => {
    let nonEmpty = 0;
    for (let i = 0; i < 120; i++) {
      const criteria = {
        workspaceId: fx.workspaceId,
        connectionId: pick(connections),
        query: pick(QUERIES),
        object: pick([null, null, 'page', 'data_source'] as const),
        inTrash: random() < 0.25,
        direction: pick(['descending', 'ascending'] as const),
      };
      const expected = await oracle(criteria);
      if (expected.length) nonEmpty++;
      const pageSize = 1 + Math.floor(random() * 8);
      for (const plan of ['ordered', 'visible_first'] as const) {
        assert.deepEqual(await pageAll(criteria, plan, pageSize), expected, `${plan} ${JSON.stringify(criteria)} page size ${pageSize}`);
      }
    }
    assert.ok(nonEmpty > 40, `most cases find something (${nonEmpty})`);
  });

  test('the automatic choice follows the matches: a selective query walks them, a common one or a short one reads what is visible', async () => {
    const reachOf = async (connectionId: string) =>
      (
        await store.db
          .selectFrom('grants as g')
          .innerJoin('object_ancestors as a', 'a.ancestor_id', 'g.object_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('g.connection_id', '=', connectionId)
          .executeTakeFirstOrThrow()
      ).n;
    // The tree is small: count matches from any reach, so the cap is reach ÷ 16.
    const options = { countMatchesFrom: 0 };
    const titles = (await sql<{ title: string }>`SELECT title FROM search_index`.execute(store.db)).rows.map((t) => foldTitle(t.title));
    const matchesOf = (query: string) => titles.filter((t) => t.includes(foldTitle(query))).length;
    const everything = connections[connections.length - 1];
    const caps = new Map<string, number>();
    for (const id of connections) caps.set(id, fewMatchesCap(Number(await reachOf(id)), 0));
    // One title only: renamed from the tree's words to one of its own.
    const pages = await store.db
      .selectFrom('objects')
      .select('id')
      .where('workspace_id', '=', fx.workspaceId)
      .where('object', '=', 'page')
      .where('in_trash', '=', 0)
      .execute();
    await writer.rename(pages[0].id, 'Quokka');
    const common = 'not';
    const small = connections.find((id) => caps.get(id)! >= 1 && caps.get(id)! <= matchesOf(common));
    assert.ok(caps.get(everything)! >= 2 && small, `caps ${JSON.stringify([...caps.values()])}, ${matchesOf(common)} matches of "${common}"`);
    const cases: Array<{ connectionId: string; query: string | null; plan: 'ordered' | 'visible_first' }> = [
      { connectionId: everything, query: 'quokka', plan: 'ordered' },
      { connectionId: everything, query: 'zzz', plan: 'ordered' },
      { connectionId: small, query: 'zzz', plan: 'ordered' },
      { connectionId: small, query: common, plan: 'visible_first' },
      { connectionId: everything, query: 'no', plan: 'visible_first' },
      { connectionId: everything, query: null, plan: 'visible_first' },
    ];
    const base = { workspaceId: fx.workspaceId, object: null, inTrash: false, direction: 'descending' as const };
    for (const { connectionId, query, plan } of cases) {
      const criteria = { ...base, connectionId, query };
      const found = await findSearchHits(store.db, { ...criteria, snapshot: null, after: null, limit: 100 }, options);
      assert.equal(found.plan, plan, `${query}: cap ${caps.get(connectionId)}`);
      assert.deepEqual(
        found.hits.map((h) => h.objectId),
        (await oracle(criteria)).slice(0, 100),
        `${query}`,
      );
    }
    const base2 = { ...base, connectionId: small };
    // At or past the reach threshold every query walks the matches, as before.
    const wide = await findSearchHits(store.db, { ...base2, query: 'not', snapshot: null, after: null, limit: 100 }, { visibleFirstBelow: 1 });
    assert.equal(wide.plan, 'ordered');
    // By default a reach this small is not worth a count: visible first.
    const uncounted = await findSearchHits(store.db, { ...base2, query: 'zzz', snapshot: null, after: null, limit: 100 });
    assert.equal(uncounted.plan, 'visible_first');
  });
});

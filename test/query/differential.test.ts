/**
 * Issue 12 acceptance: random filter trees, run through POST /v1/data_sources/{id}/query (paged
 * through every cursor, sometimes sorted, by three kinds of connection) and through the plain
 * evaluator of reference.ts, must select the same pages every time. One server and one fixture
 * serve every run; fast-check's seed is fixed, so a failure repeats and is shrunk to a small
 * filter. Runs unchanged on PostgreSQL when DATABASE_URL names one.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { buildQueryFixture, inParallel, type QueryConnection, type QueryFixture } from './fixture.js';
import { filterArbitrary, sortsArbitrary, type FilterContext } from './filterArbitrary.js';
import { matches, type PageObject, type QueryFilter, type QuerySorts } from './reference.js';

type Json = Record<string, any>;

const SEED = 20_260_311;
const RUNS = 2000;
const DAY = 86_400_000;

/** Queries in flight at once while answers are fetched ahead. */
const AHEAD = 4;

interface Listing {
  ids: string[];
  requests: number;
  error?: string;
}

interface Answer {
  listing: Listing;
  before: Date;
  after: Date;
}

/** Every page of a query, following next_cursor to the end. */
async function queryAll(url: string, dataSourceId: string, token: string, body: Json, query = ''): Promise<Listing> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let requests = 1; ; requests++) {
    const res: { status: number; body: Json } = await call<Json>(url, 'POST', `/v1/data_sources/${dataSourceId}/query${query}`, {
      token,
      body: cursor === null ? body : { ...body, start_cursor: cursor },
    });
    if (res.status !== 200) return { ids, requests, error: `${res.status} ${JSON.stringify(res.body)}` };
    const list: Json = res.body;
    if (list.object !== 'list' || list.type !== 'page_or_data_source' || !Array.isArray(list.results))
      return { ids, requests, error: `not a list: ${JSON.stringify(list).slice(0, 300)}` };
    ids.push(...(list.results as Json[]).map((p) => p.id as string));
    if (!list.has_more) return { ids, requests };
    if (typeof list.next_cursor !== 'string') return { ids, requests, error: `has_more without a cursor: ${JSON.stringify(list.next_cursor)}` };
    cursor = list.next_cursor;
  }
}

interface NamesRead {
  own: string[];
  /** Properties of related pages that rollups read. */
  related: string[];
}

/** The property names a filter reads, for showing the values behind a disagreement. */
function namesRead(filter: Json, fixture: QueryFixture): NamesRead {
  const items = fixture.dataSources.get(fixture.itemsId)!.properties;
  const targets = fixture.dataSources.get(fixture.targetsId)!.properties;
  const byRef = (properties: Json, ref: string) => (Object.hasOwn(properties, ref) ? ref : Object.keys(properties).find((n) => properties[n].id === ref));
  const parts = Array.isArray(filter.and) ? filter.and : Array.isArray(filter.or) ? filter.or : null;
  if (parts) {
    const read = (parts as Json[]).map((f) => namesRead(f, fixture));
    return { own: read.flatMap((r) => r.own), related: read.flatMap((r) => r.related) };
  }
  if (typeof filter.timestamp === 'string') return { own: [], related: [] };
  const name = byRef(items, filter.property);
  if (!name) return { own: [filter.property], related: [] };
  const property = items[name];
  if (property.type !== 'rollup') return { own: [name], related: [] };
  return { own: [name, byRef(items, property.rollup.relation_property_id)!], related: [byRef(targets, property.rollup.rollup_property_id)!] };
}

const NOISE = new Set(['annotations', 'href', 'color', 'link', 'object', 'description']);

/** A value as a short line: plain text for rich text, without annotations and colours. */
function brief(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (NOISE.has(key)) return undefined;
    if (Array.isArray(v) && v.length > 0 && v.every((i) => typeof i?.plain_text === 'string')) return v.map((i) => i.plain_text).join('');
    return v;
  });
}

function showPages(ids: string[], names: NamesRead, fixture: QueryFixture, now: Date): string {
  const pick = (page: PageObject | undefined, list: string[]) => [...new Set(list)].map((n) => `${n}=${brief(page?.properties[n])}`).join(' ');
  return ids
    .slice(0, 5)
    .map((id) => {
      const page = fixture.pages.get(id) as PageObject;
      const lines = [
        `  ${id} created ${page.created_time} edited ${page.last_edited_time} by ${page.created_by.id}/${page.last_edited_by.id} (now ${now.toISOString()})`,
        ...[...new Set(names.own)].map((n) => `    ${n}=${brief(page.properties[n])}`),
      ];
      if (names.related.length) {
        for (const r of (page.properties.Links?.relation ?? []) as Json[]) {
          const related = fixture.pages.get(r.id);
          lines.push(`      related ${r.id}${related?.in_trash ? ' (in the trash)' : ''}: ${pick(related, names.related)}`);
        }
      }
      return lines.join('\n');
    })
    .join('\n');
}

describe('queries against a plain reference evaluator', () => {
  const { server, fx } = useServer();
  let fixture: QueryFixture;
  let context: FilterContext;
  before(async () => {
    fixture = await buildQueryFixture(server, fx);
    context = {
      items: fixture.dataSources.get(fixture.itemsId)!,
      targets: fixture.dataSources.get(fixture.targetsId)!,
      pages: [...fixture.pages.values()],
      userIds: fixture.userIds,
      day0: fixture.day0,
      timestamps: fixture.timestamps,
    };
  });

  const itemsWhere = (inTrash: boolean) => [...fixture.pages.values()].filter((p) => p.parent.data_source_id === fixture.itemsId && p.in_trash === inTrash);

  test('without a filter a query lists every page out of (or in) the trash, each as retrieving it shows it', async () => {
    for (const inTrash of [false, true]) {
      const res = await call<Json>(server.url, 'POST', `/v1/data_sources/${fixture.itemsId}/query`, { token: fx.token, body: { in_trash: inTrash } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const listing = await queryAll(server.url, fixture.itemsId, fx.token, { in_trash: inTrash });
      assert.equal(listing.error, undefined);
      assert.deepEqual(new Set(listing.ids), new Set(itemsWhere(inTrash).map((p) => p.id)));
      assert.equal(listing.ids.length, new Set(listing.ids).size, 'no page twice');
      for (const page of res.body.results as Json[]) assert.deepEqual(page, fixture.pages.get(page.id));
      if (!inTrash) assert.deepEqual(res.body.request_status, { type: 'complete' });
    }
  });

  test(`${RUNS} random filter trees select the pages the reference selects`, async () => {
    const queries = fc.record({
      filter: filterArbitrary(context),
      sorts: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: sortsArbitrary(context), weight: 1 }),
      inTrash: fc.oneof(
        { arbitrary: fc.constant(undefined), weight: 6 },
        { arbitrary: fc.constant(false), weight: 2 },
        { arbitrary: fc.constant(true), weight: 1 },
      ),
      connection: fc.constantFrom(...fixture.connections.map((c) => c.kind)),
      pageSize: fc.constantFrom(100, 100, 100, 60, 25),
    });
    type Query = typeof queries extends fc.Arbitrary<infer Q> ? Q : never;
    let requests = 0;
    let skipped = 0;
    const ask = async ({ filter, sorts, inTrash, connection, pageSize }: Query): Promise<Answer> => {
      const body: Json = { filter, page_size: pageSize };
      if (sorts) body.sorts = sorts;
      if (inTrash !== undefined) body.in_trash = inTrash;
      const before = new Date();
      // Only ids are compared: pages cut to their title halve the time of a run.
      const { token } = fixture.connections.find((c) => c.kind === connection)!;
      const listing = await queryAll(server.url, fixture.itemsId, token, body, '?filter_properties=title');
      requests += listing.requests;
      return { listing, before, after: new Date() };
    };
    // The same seed draws the same queries in fc.sample as in fc.assert: they are asked ahead,
    // several at a time, and the property reads the answers; only shrinking asks anew.
    const started = Date.now();
    const answers = new Map<string, Answer>();
    const planned = fc.sample(queries, { seed: SEED, numRuns: RUNS });
    await inParallel(planned, AHEAD, async (q) => answers.set(JSON.stringify(q), await ask(q)));
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(queries, async (q) => {
        const ready = answers.get(JSON.stringify(q));
        if (ready) answered++;
        const { listing, before, after } = ready ?? (await ask(q));
        // Relative dates and windows are UTC days: a query that spans midnight has no one answer.
        if (Math.floor(before.getTime() / DAY) !== Math.floor(after.getTime() / DAY)) {
          skipped++;
          return;
        }
        check(
          q.filter,
          q.sorts,
          q.inTrash ?? false,
          fixture.connections.find((c) => c.kind === q.connection)!,
          listing,
          before,
        );
      }),
      { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${RUNS} filter trees (${answered} asked ahead), ${requests} requests, ${skipped} skipped at midnight, ${seconds} s`);
  });

  function check(filter: QueryFilter, sorts: QuerySorts | undefined, inTrash: boolean, connection: QueryConnection, listing: Listing, now: Date): void {
    const context = `filter ${JSON.stringify(filter)}\nsorts ${JSON.stringify(sorts)} in_trash ${inTrash} connection ${connection.kind} (me ${connection.me})`;
    if (listing.error) assert.fail(`${context}\nthe query failed: ${listing.error}`);
    assert.equal(listing.ids.length, new Set(listing.ids).size, `${context}\na page came twice across the cursors`);
    const world = fixture.world(connection.me, now);
    const expected = new Set(
      itemsWhere(inTrash)
        .filter((p) => matches(filter, p, world))
        .map((p) => p.id),
    );
    const got = new Set(listing.ids);
    const extra = [...got].filter((id) => !expected.has(id));
    const missing = [...expected].filter((id) => !got.has(id));
    if (extra.length === 0 && missing.length === 0) return;
    const names = namesRead(filter as Json, fixture);
    assert.fail(
      `${context}\n` +
        (extra.length ? `returned but not expected (${extra.length}):\n${showPages(extra, names, fixture, now)}\n` : '') +
        (missing.length ? `expected but not returned (${missing.length}):\n${showPages(missing, names, fixture, now)}\n` : ''),
    );
  }
});

/**
 * The query benchmark (issue 12): a generated data source of N pages (scripts/generateDataSource.ts),
 * eight queries (bench/query/cases.ts), page_size 100, the first page and the page after it (by
 * cursor), each timed three ways in the same run, interleaved query by query:
 * - end to end: one HTTP request at a time (node:http, one kept-alive connection) from this
 *   process to the compiled server, until the last byte of the response has arrived;
 * - in the server: Fastify's own responseTime for that request (from its log, by request id);
 * - hand-written SQL: the statements that produce the same page, run directly on the same store
 *   from this process: the data source with its schema if the connection may see it, the page of
 *   rows, their property values (id and JSON) and which of the pages they relate to are in the
 *   trash (presenting leaves those out), the same columns src/commands/loadObjectViews.ts reads;
 *   no HTTP, no query builder, no presenting and no JSON.
 * Before any timing, Folio's ids of both pages must equal the hand-written SQL's ids, query by query.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { tuneSqliteReads } from '../../src/storage/createStore.js';
import type { DataSourceContent } from '../../src/domain/contentShapes.js';
import { TASKS, generateDataSource, type DataSourceManifest } from '../../scripts/generateDataSource.js';
import { buildProject } from '../lib/processes.js';
import { jsonClient, percentile, startTimedServer } from '../lib/timedServer.js';
import { median } from '../lib/compare.js';
import { CASES, type DialectName, type Fixture, type HandQuery, type QueryCase, type SortKey } from './cases.js';

export const PAGE_SIZE = 100;

export interface QueryBenchConfig {
  pages: number;
  /** Where the SQLite store lives (reused while its manifest matches); on PostgreSQL only the manifest. */
  dir: string;
  warmup: number;
  iterations: number;
  rounds: number;
  build: boolean;
  entry: string;
  profile?: boolean;
  /** Seconds a query may take per round (and for its warm-up), both pages and both sides; 0: no limit. */
  budget: number;
  /** Keys of the queries to run (cases.ts); all when empty. */
  only: string[];
  /** Time only the hand-written SQL: no server, nothing checked against Folio. */
  sqlOnly?: boolean;
  log(line: string): void;
}

export interface Timings {
  e2e: number[];
  server: number[];
  raw: number[];
}

export interface CaseStats {
  key: string;
  label: string;
  /** Pages of Tasks out of the trash the query matches. */
  matches: number;
  returned: [number, number];
  first: Timings;
  /** The page after the first, by start_cursor; empty when the first page was the last. */
  next: Timings;
}

export interface QueryBenchResult {
  store: string;
  manifest: DataSourceManifest;
  generatedSeconds: number | null;
  stats: CaseStats[];
  config: Omit<QueryBenchConfig, 'log'>;
}

// ---- the data source ------------------------------------------------------------------------------

function manifestPath(config: QueryBenchConfig): string {
  return path.join(config.dir, 'query-data-source.json');
}

async function prepareDataSource(config: QueryBenchConfig): Promise<{ manifest: DataSourceManifest; seconds: number | null }> {
  const file = manifestPath(config);
  const store = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
  if (fs.existsSync(file)) {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as DataSourceManifest;
    if (manifest.store !== store) throw new Error(`${file} describes a data source on ${manifest.store}, not on ${store}: choose another --dir`);
    if (manifest.counts.pages === config.pages) {
      config.log(`reusing the data source of ${file} (${manifest.counts.pages.toLocaleString('en')} pages)`);
      return { manifest, seconds: null };
    }
    throw new Error(`${file} describes ${manifest.counts.pages.toLocaleString('en')} pages, not ${config.pages.toLocaleString('en')}: choose another --dir`);
  }
  if (process.env.DATABASE_URL) config.log('generating on PostgreSQL: DATABASE_URL should name a dedicated database');
  else if (fs.existsSync(path.join(config.dir, 'folio.sqlite')))
    throw new Error(`${config.dir} holds a store without a manifest; remove it or choose another --dir`);
  const started = Date.now();
  const manifest = await generateDataSource({ pages: config.pages, related: 1000, dataDir: config.dir, out: file, seed: 42, batch: 5000 });
  return { manifest, seconds: (Date.now() - started) / 1000 };
}

// ---- hand-written SQL --------------------------------------------------------------------------------

/** Statements with `?` placeholders, run on the store as they are (SQLite) or numbered (PostgreSQL). */
interface RawStore {
  dialect: DialectName;
  describe(): Promise<string>;
  all<T>(text: string, params: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function sqliteStore(file: string): RawStore {
  const db = new SQLite(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  // The server's page cache and memory map: the SQL must read the file as the server does.
  tuneSqliteReads(db);
  const cache = new Map<string, SQLite.Statement>();
  return {
    dialect: 'sqlite',
    describe: async () => `sqlite ${(db.prepare('select sqlite_version() AS v').get() as { v: string }).v}`,
    all: async <T>(text: string, params: readonly unknown[]) => {
      let statement = cache.get(text);
      if (!statement) cache.set(text, (statement = db.prepare(text)));
      return statement.all(...params) as T[];
    },
    close: async () => void db.close(),
  };
}

async function postgresStore(url: string): Promise<RawStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const numbered = new Map<string, string>();
  return {
    dialect: 'postgres',
    describe: async () => `postgres ${(await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version.split(' ')[0]}`,
    all: async <T>(text: string, params: readonly unknown[]) => {
      let statement = numbered.get(text);
      if (statement === undefined) {
        let n = 0;
        statement = text.replace(/\?/g, () => `$${++n}`);
        numbered.set(text, statement);
      }
      return (await client.query(statement, params as unknown[])).rows as T[];
    },
    close: () => client.end(),
  };
}

const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** `key` sorts after `value`: empty values last whichever the direction. */
function beyond(key: SortKey, value: unknown): { text: string; params: unknown[] } {
  if (value === null) return { text: '1 = 0', params: [] };
  const comparison = `${key.expr} ${key.descending ? '<' : '>'} ?`;
  return { text: key.nullable ? `(${comparison} OR ${key.expr} IS NULL)` : comparison, params: [value] };
}

/**
 * The rows after the last row of a page, keyset-wise: for each key, the earlier keys equal and this
 * one beyond. When every key is the row's own, non-empty and ascending (the default order), a row
 * value comparison says it in a form indexes can serve.
 */
function after(order: readonly SortKey[], last: readonly unknown[]): { text: string; params: unknown[] } {
  if (order.every((k) => !k.nullable && !k.descending))
    return { text: `(${order.map((k) => k.expr).join(', ')}) > (${list(order.length)})`, params: [...last] };
  const alternatives: string[] = [];
  const params: unknown[] = [];
  order.forEach((key, i) => {
    const equal = order.slice(0, i).map((k, j) => (last[j] === null ? `${k.expr} IS NULL` : `${k.expr} = ?`));
    const step = beyond(key, last[i]);
    alternatives.push(`(${[...equal, step.text].join(' AND ')})`);
    params.push(...last.slice(0, i).filter((v) => v !== null), ...step.params);
  });
  // The first key's own bound as well, redundant but a range an index on it can start from.
  const [lead] = order;
  if (!lead.nullable && last[0] !== null) {
    return { text: `${lead.expr} ${lead.descending ? '<=' : '>='} ? AND (${alternatives.join(' OR ')})`, params: [last[0], ...params] };
  }
  return { text: `(${alternatives.join(' OR ')})`, params };
}

const orderBy = (order: readonly SortKey[]) => order.map((k) => `${k.expr}${k.descending ? ' DESC' : ''}${k.nullable ? ' NULLS LAST' : ''}`).join(', ');

const TASK_OF_SOURCE = `o.parent_id = ? AND o.parent_type = 'data_source_id' AND o.object = 'page' AND o.in_trash = 0`;

interface RawPage {
  ids: string[];
  hasMore: boolean;
  /** The last row's sort keys, for the next page. */
  last: unknown[] | null;
}

/**
 * One page as the hand-written SQL answers it: the data source if the connection may see it, the
 * page, then what presenting it reads.
 */
export async function rawPage(store: RawStore, f: Fixture, query: HandQuery, lastKeys: readonly unknown[] | null): Promise<RawPage> {
  const { manifest } = f;
  const source = await store.all<{ id: string; parent_id: string; content: string }>(
    `SELECT d.id, d.parent_id, d.content FROM objects d WHERE d.id = ? AND d.object = 'data_source' AND d.in_trash = 0
      AND EXISTS (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id WHERE a.descendant_id = d.id AND g.connection_id = ?)`,
    [manifest.tasks.dataSourceId, manifest.connection.id],
  );
  if (source.length === 0) throw new Error('the connection cannot see the data source');
  const keys = query.order.map((k, i) => `${k.expr} AS k${i}`).join(', ');
  const rest = lastKeys ? after(query.order, lastKeys) : null;
  const rows = await store.all<Record<string, unknown>>(
    `SELECT o.*, ${keys} FROM ${query.from?.tables ?? 'objects o'} ${query.joins}
      WHERE ${query.from ? `${query.from.where} AND ` : ''}${TASK_OF_SOURCE} AND (${query.where})${rest ? ` AND ${rest.text}` : ''}
      ORDER BY ${orderBy(query.order)} LIMIT ${PAGE_SIZE + 1}`,
    [...query.joinParams, ...(query.from?.params ?? []), manifest.tasks.dataSourceId, ...query.params, ...(rest?.params ?? [])],
  );
  const page = rows.slice(0, PAGE_SIZE);
  const ids = page.map((r) => r.id as string);
  if (ids.length > 0) {
    await store.all(`SELECT page_id, property_id, value FROM property_values WHERE page_id IN (${list(ids.length)})`, ids);
    await store.all(
      `SELECT i.page_id, i.item FROM property_value_items i JOIN objects r ON r.id = i.item
        WHERE i.page_id IN (${list(ids.length)}) AND i.property_id = ? AND r.in_trash = 1`,
      [...ids, f.task(TASKS.relation)],
    );
  }
  const lastRow = page[page.length - 1];
  return { ids, hasMore: rows.length > PAGE_SIZE, last: lastRow ? query.order.map((_, i) => lastRow[`k${i}`] ?? null) : null };
}

async function countMatches(store: RawStore, f: Fixture, query: HandQuery): Promise<number> {
  const [row] = await store.all<{ n: number | string }>(`SELECT count(*) AS n FROM objects o ${query.joins} WHERE ${TASK_OF_SOURCE} AND (${query.where})`, [
    ...query.joinParams,
    f.manifest.tasks.dataSourceId,
    ...query.params,
  ]);
  return Number(row.n);
}

export async function loadFixture(store: RawStore, manifest: DataSourceManifest): Promise<Fixture> {
  const id = (properties: DataSourceManifest['tasks']['properties'], name: string) => {
    const property = properties[name];
    if (!property) throw new Error(`the manifest names no property ${name}`);
    return property.id;
  };
  const task = (name: string) => id(manifest.tasks.properties, name);
  // A project out of the trash ranked 50th by the tasks relating to it: a selective filter at any size.
  const ranked = await store.all<{ item: string }>(
    `SELECT i.item FROM property_value_items i JOIN objects r ON r.id = i.item AND r.in_trash = 0
      WHERE i.property_id = ? GROUP BY i.item ORDER BY count(*) DESC, i.item LIMIT 50`,
    [task(TASKS.relation)],
  );
  const [source] = await store.all<{ content: string }>('SELECT content FROM objects WHERE id = ?', [manifest.tasks.dataSourceId]);
  if (!source) throw new Error(`the store holds no data source ${manifest.tasks.dataSourceId}: the manifest was written for another store`);
  const status = (JSON.parse(source.content) as DataSourceContent).properties[task(TASKS.status)] as unknown as {
    status: { options: { name: string; group: string }[] };
  };
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return {
    manifest,
    task,
    project: (name) => id(manifest.projects.properties, name),
    relatedPageId: ranked[ranked.length - 1].item,
    inProgressOptions: status.status.options.filter((o) => o.group === 'In progress').map((o) => o.name),
    oneWeekAgo: new Date(today.getTime() - 7 * 86_400_000).toISOString(),
  };
}

// ---- the run -----------------------------------------------------------------------------------

interface FolioPage {
  object: string;
  results: { id: string; object: string }[];
  next_cursor: string | null;
  has_more: boolean;
}

interface Plan {
  c: QueryCase;
  body: object;
  sql: HandQuery;
  /** Where the page after the first starts: Folio's cursor (null when only SQL runs) and the SQL's last keys. */
  next: { cursor: string | null; last: unknown[] } | null;
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

function describeMismatch(c: QueryCase, page: string, folio: readonly string[], raw: readonly string[]): string {
  const at = folio.findIndex((id, i) => id !== raw[i]);
  const index = at === -1 ? Math.min(folio.length, raw.length) : at;
  return `(${c.key}) ${c.label}, ${page} page: Folio returned ${folio.length} ids, the SQL ${raw.length}; first difference at ${index}: ${folio[index] ?? '(none)'} / ${raw[index] ?? '(none)'}`;
}

export async function runQueryBench(config: QueryBenchConfig): Promise<QueryBenchResult> {
  if (config.build && !config.sqlOnly) await buildProject();
  const { manifest, seconds } = await prepareDataSource(config);
  const url = process.env.DATABASE_URL;
  const store = url ? await postgresStore(url) : sqliteStore(path.join(manifest.dataDir, 'folio.sqlite'));
  const server = config.sqlOnly ? null : await startTimedServer({ dataDir: manifest.dataDir, entry: config.entry, profile: config.profile });
  const client = server ? jsonClient(server.url) : null;
  try {
    const storeName = await store.describe();
    const fixture = await loadFixture(store, manifest);
    const queryPath = `/v1/data_sources/${manifest.tasks.dataSourceId}/query`;

    const folio = async (body: object, cursor: string | null) => {
      const r = await client!.post<FolioPage>(queryPath, manifest.connection.token, {
        ...body,
        page_size: PAGE_SIZE,
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      if (r.status !== 200) throw new Error(`query ${JSON.stringify(body)} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r;
    };

    // Both pages of every query, from both sides, must agree before anything is timed.
    config.log(server ? 'checking that Folio and the hand-written SQL return the same pages' : 'hand-written SQL only: nothing is checked against Folio');
    const mismatches: string[] = [];
    const plans: Plan[] = [];
    const unknown = config.only.filter((key) => !CASES.some((c) => c.key === key));
    if (unknown.length > 0) throw new Error(`no query ${unknown.join(', ')}: the queries are ${CASES.map((c) => c.key).join(', ')}`);
    for (const c of CASES.filter((q) => config.only.length === 0 || config.only.includes(q.key))) {
      const plan: Plan = { c, body: c.body(fixture), sql: c.sql(fixture, store.dialect), next: null };
      const r1 = await rawPage(store, fixture, plan.sql, null);
      if (client) {
        const f1 = (await folio(plan.body, null)).body;
        const ids1 = f1.results.map((r) => r.id);
        if (!sameIds(ids1, r1.ids)) mismatches.push(describeMismatch(c, 'first', ids1, r1.ids));
        if (f1.has_more !== r1.hasMore) mismatches.push(`(${c.key}) ${c.label}: Folio says has_more ${f1.has_more}, the SQL ${r1.hasMore}`);
        if (f1.has_more && f1.next_cursor && r1.last) {
          plan.next = { cursor: f1.next_cursor, last: r1.last };
          const ids2 = (await folio(plan.body, plan.next.cursor)).body.results.map((r) => r.id);
          const r2 = await rawPage(store, fixture, plan.sql, plan.next.last);
          if (!sameIds(ids2, r2.ids)) mismatches.push(describeMismatch(c, 'second', ids2, r2.ids));
        }
      } else if (r1.hasMore && r1.last) {
        plan.next = { cursor: null, last: r1.last };
      }
      plans.push(plan);
    }
    if (mismatches.length > 0) throw new Error(`Folio and the hand-written SQL disagree:\n${mismatches.map((m) => `  ${m}`).join('\n')}`);

    const stats: CaseStats[] = [];
    for (const p of plans) {
      const first = await rawPage(store, fixture, p.sql, null);
      const next = p.next ? await rawPage(store, fixture, p.sql, p.next.last) : null;
      stats.push({
        key: p.c.key,
        label: p.c.label,
        matches: await countMatches(store, fixture, p.sql),
        returned: [first.ids.length, next?.ids.length ?? 0],
        first: { e2e: [], server: [], raw: [] },
        next: { e2e: [], server: [], raw: [] },
      });
    }
    const requestIds = new Map<Timings, string[]>(stats.flatMap((s) => [s.first, s.next].map((t) => [t, [] as string[]])));
    const timeFolio = async (timings: Timings | null, body: object, cursor: string | null) => {
      if (!client) return;
      const r = await folio(body, cursor);
      if (timings) {
        timings.e2e.push(r.elapsed);
        requestIds.get(timings)!.push(r.requestId);
      }
    };
    const timeRaw = async (timings: Timings | null, query: HandQuery, last: unknown[] | null) => {
      const started = performance.now();
      await rawPage(store, fixture, query, last);
      timings?.raw.push(performance.now() - started);
    };
    /** The first page and the next, each from Folio and from SQL, in the order `folioFirst` says. */
    const step = async (i: number, record: boolean, folioFirst: boolean) => {
      const p = plans[i];
      const pair = async (timings: Timings, cursor: string | null, last: unknown[] | null) => {
        const t = record ? timings : null;
        if (folioFirst) await timeFolio(t, p.body, cursor);
        await timeRaw(t, p.sql, last);
        if (!folioFirst) await timeFolio(t, p.body, cursor);
      };
      await pair(stats[i].first, null, null);
      if (p.next) await pair(stats[i].next, p.next.cursor, p.next.last);
    };

    // A query stops for the round (or the warm-up) once it has taken its budget, so a slow one
    // (a sort of the whole data source at a million pages) cannot hold up the run for hours.
    const budgeted = async (iterations: number, run: (n: number, i: number) => Promise<void>) => {
      const spent = plans.map(() => 0);
      for (let n = 0; n < iterations; n++) {
        for (let i = 0; i < plans.length; i++) {
          if (config.budget > 0 && spent[i] > config.budget * 1000) continue;
          const started = performance.now();
          await run(n, i);
          spent[i] += performance.now() - started;
        }
      }
    };
    config.log(`warming up: ${config.warmup} runs per query and page`);
    await budgeted(config.warmup, (n, i) => step(i, false, n % 2 === 0));
    for (let round = 1; round <= config.rounds; round++) {
      config.log(`round ${round}/${config.rounds}`);
      // Query by query, alternating which of HTTP and SQL goes first, so drift in the machine's
      // load falls on both alike.
      await budgeted(config.iterations, (n, i) => step(i, true, (n + round) % 2 === 0));
    }
    if (server) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const s of stats) {
        for (const t of [s.first, s.next]) {
          for (const id of requestIds.get(t)!) {
            const ms = server.responseTimes.get(id);
            if (ms !== undefined) t.server.push(ms);
          }
          if (t.server.length < t.e2e.length * 0.95) throw new Error(`only ${t.server.length} of ${t.e2e.length} server timings were logged for (${s.key})`);
        }
      }
    }
    const { log: _, ...settings } = config;
    return { store: storeName, manifest, generatedSeconds: seconds, stats, config: settings };
  } finally {
    client?.close();
    await server?.stop();
    await store.close();
  }
}

// ---- the report ---------------------------------------------------------------------------------

const f = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const ratio = (a: number, b: number) => f2(a / b);
const f2 = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(2));

/**
 * Each figure as the median over the queries of that query's figure (the ratios too: the median
 * of the queries' ratios), so every query weighs the same whatever number of runs its budget
 * allowed.
 */
export function summarize(timings: readonly Timings[]) {
  const measured = timings.filter((t) => t.raw.length > 0);
  const over = (key: keyof Timings, p: number) => {
    const values = measured.map((t) => percentile(t[key], p)).filter((v) => !Number.isNaN(v));
    return values.length ? median(values) : NaN;
  };
  const ratioOf = (key: 'e2e' | 'server') => {
    const values = measured.map((t) => percentile(t[key], 50) / percentile(t.raw, 50)).filter((v) => !Number.isNaN(v));
    return values.length ? median(values) : NaN;
  };
  return {
    e2eP50: over('e2e', 50),
    e2eP99: over('e2e', 99),
    serverP50: over('server', 50),
    serverP99: over('server', 99),
    rawP50: over('raw', 50),
    rawP99: over('raw', 99),
    serverRatio: ratioOf('server'),
    e2eRatio: ratioOf('e2e'),
  };
}

export function markdownTables(result: QueryBenchResult): string {
  const out: string[] = [];
  for (const [page, pick, index] of [
    ['first page', (s: CaseStats) => s.first, 0],
    ['next page (start_cursor)', (s: CaseStats) => s.next, 1],
  ] as const) {
    out.push(
      `**${page}**:`,
      '',
      '| query | pages matching | returned | runs | e2e p50 | e2e p99 | server p50 | server p99 | SQL p50 | SQL p99 | server / SQL (p50) | e2e / SQL (p50) |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const s of result.stats) {
      const t = summarize([pick(s)]);
      out.push(
        `| (${s.key}) ${s.label} | ${s.matches.toLocaleString('en')} | ${pick(s).raw.length ? s.returned[index] : '–'} | ${pick(s).raw.length} | ${f(t.e2eP50)} | ${f(t.e2eP99)} | ${f(t.serverP50)} | ${f(
          t.serverP99,
        )} | ${f(t.rawP50)} | ${f(t.rawP99)} | ${ratio(t.serverP50, t.rawP50)} | ${ratio(t.e2eP50, t.rawP50)} |`,
      );
    }
    const t = summarize(result.stats.map(pick));
    out.push(
      `| **median of the queries** | | | | **${f(t.e2eP50)}** | **${f(t.e2eP99)}** | **${f(t.serverP50)}** | **${f(t.serverP99)}** | **${f(t.rawP50)}** | **${f(t.rawP99)}** | **${f2(t.serverRatio)}** | **${f2(t.e2eRatio)}** |`,
      '',
    );
  }
  return out.join('\n');
}

/** The figures to compare across runs: the medians over the queries of their first pages, then of their next pages. */
export function verdict(result: QueryBenchResult): string {
  return (
    [
      ['first pages', result.stats.map((s) => s.first)],
      ['next pages', result.stats.map((s) => s.next)],
    ] as const
  )
    .map(([name, timings]) => {
      const s = summarize(timings);
      return `${name}: end to end p50 ${f(s.e2eP50)} ms, p99 ${f(s.e2eP99)} ms; in-server / SQL at p50 ${f2(s.serverRatio)}; end to end / SQL ${f2(s.e2eRatio)}`;
    })
    .join('\n');
}

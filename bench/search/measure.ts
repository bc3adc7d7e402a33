/**
 * The search benchmark (issue 4): a generated workspace of N pages (scripts/generateWorkspace.ts),
 * ten title queries from very common to rare, page_size 100, each timed three ways in the same
 * run and interleaved query by query:
 * - end to end: one HTTP request at a time (node:http, one kept-alive connection) from this
 *   process to the compiled server, until the last byte of the response has arrived;
 * - in the server: Fastify's own responseTime for that request (its "request completed" log line,
 *   matched by request id), from the request's arrival to the last byte written;
 * - raw SQL: the statements that produce the same page, prepared once and run directly on the
 *   same store from this process (the search statement of the plan the server picks, then the
 *   page rows, their property values, the pages' data sources and the data sources' databases,
 *   the same columns src/presenters/objects.ts reads), with no HTTP,
 *   no query builder, no presenting and no JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { fewMatchesCap, VISIBLE_FIRST_BELOW } from '../../src/storage/repositories/search.js';
import { tuneSqliteReads } from '../../src/storage/createStore.js';
import { generateWorkspace, type WorkspaceManifest } from '../../scripts/generateWorkspace.js';
import { buildProject } from '../lib/processes.js';
import { jsonClient, percentile, startTimedServer } from '../lib/timedServer.js';

/** From very common to rare, in the generator's vocabulary (their match counts are measured and reported). */
export const QUERIES = [
  'e',
  'notes',
  'weekly sync',
  'meeting',
  'design review',
  'roadmap',
  'postmortem',
  'onboarding checklist',
  'project zephyr',
  'xylophone',
];

export const TARGETS = { p50: 10, p99: 50, ratio: 1.5 };

export interface SearchBenchConfig {
  pages: number;
  /** Where the SQLite workspace lives (reused when its manifest matches); ignored on PostgreSQL except for the manifest. */
  dir: string;
  warmup: number;
  iterations: number;
  rounds: number;
  build: boolean;
  entry: string;
  /** Start the server with --cpu-prof; the profile is written under .bench/profiles when it stops. */
  profile?: boolean;
  log(line: string): void;
}

export interface QueryStats {
  connection: 'wide' | 'narrow';
  query: string;
  /** Titles in the whole workspace containing the query (every version current, trashed included). */
  matches: number;
  returned: number;
  /** The server's automatic choice (src/storage/repositories/search.ts), which raw SQL follows. */
  visibleFirst: boolean;
  e2e: number[];
  server: number[];
  raw: number[];
}

export interface SearchBenchResult {
  store: string;
  manifest: WorkspaceManifest;
  generatedSeconds: number | null;
  reachable: Record<'wide' | 'narrow', number>;
  stats: QueryStats[];
  config: Omit<SearchBenchConfig, 'log'>;
}

export { percentile };

// ---- the workspace --------------------------------------------------------------------------

/** Where scripts/generateWorkspace.ts leaves it by default: in --dir, on either store (on PostgreSQL the dir holds only the manifest). */
function manifestPath(config: SearchBenchConfig): string {
  return path.join(config.dir, 'search-workspace.json');
}

async function prepareWorkspace(config: SearchBenchConfig): Promise<{ manifest: WorkspaceManifest; seconds: number | null }> {
  const file = manifestPath(config);
  if (fs.existsSync(file)) {
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as WorkspaceManifest;
    const made = manifest.counts.pages + manifest.counts.dataSources;
    if (made >= config.pages && made < config.pages * 1.01) {
      config.log(`reusing the workspace of ${file} (${made.toLocaleString('en')} pages and data sources)`);
      return { manifest, seconds: null };
    }
  }
  if (process.env.DATABASE_URL) config.log('generating on PostgreSQL: DATABASE_URL should name a dedicated, empty database');
  else if (fs.existsSync(path.join(config.dir, 'folio.sqlite'))) {
    throw new Error(`${config.dir} holds a store without a matching workspace manifest; remove it or choose another SEARCH_BENCH_DIR`);
  }
  const started = Date.now();
  const manifest = await generateWorkspace({ pages: config.pages, dataDir: config.dir, out: file, seed: 42, batch: 20000 });
  return { manifest, seconds: (Date.now() - started) / 1000 };
}

// ---- raw SQL ----------------------------------------------------------------------------------

interface RawRunner {
  describe(): Promise<string>;
  /** Titles containing the query, in the whole index. */
  count(query: string): Promise<number>;
  reachable(connectionId: string): Promise<number>;
  /** The same page the server answers, by the statements it needs. */
  page(connectionId: string, query: string, visibleFirst: boolean): Promise<number>;
  close(): Promise<void>;
}

const placeholders = (n: number, pgStyle: boolean, from = 1) => Array.from({ length: n }, (_, i) => (pgStyle ? `$${i + from}` : '?')).join(', ');

type PresentedRow = { id: string; object: string; parent_type: string; parent_id: string | null };

/** What src/presenters/objects.ts loads for a page of results: values, the pages' data sources, the data sources' databases. */
function presentationIds(rows: readonly PresentedRow[]): { pageIds: string[]; sourceIds: string[]; databaseIds: string[] } {
  const pages = rows.filter((r) => r.object === 'page');
  return {
    pageIds: pages.map((r) => r.id),
    sourceIds: [...new Set(pages.flatMap((r) => (r.parent_type === 'data_source_id' && r.parent_id ? [r.parent_id] : [])))],
    databaseIds: [...new Set(rows.flatMap((r) => (r.object === 'data_source' && r.parent_id ? [r.parent_id] : [])))],
  };
}

function sqliteRunner(file: string, workspaceId: string): RawRunner {
  const db = new SQLite(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  // The server's page cache and memory map: raw SQL must read the file as the server does.
  tuneSqliteReads(db);
  const cache = new Map<string, SQLite.Statement>();
  const prepared = (text: string) => {
    let statement = cache.get(text);
    if (!statement) cache.set(text, (statement = db.prepare(text)));
    return statement;
  };
  const visible = `EXISTS (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id WHERE a.descendant_id = s.object_id AND g.connection_id = ?)`;
  const current = `s.workspace_id = ? AND s.in_trash = 0 AND s.removed_in IS NULL`;
  const escape = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rowsOf = (table: 'objects' | 'property_values', column: string, ids: string[]) =>
    ids.length ? prepared(`SELECT * FROM ${table} WHERE ${column} IN (${placeholders(ids.length, false)})`).all(...ids) : [];
  return {
    describe: async () => `sqlite ${(db.prepare('select sqlite_version() AS v').get() as { v: string }).v}`,
    count: async (query) =>
      [...query].length >= 3
        ? (prepared('SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?').get(`"${query}"`) as { n: number }).n
        : (prepared(`SELECT count(*) AS n FROM search_index WHERE removed_in IS NULL AND title LIKE ? ESCAPE '\\'`).get(escape(query)) as { n: number }).n,
    reachable: async (connectionId) =>
      (
        prepared('SELECT count(*) AS n FROM grants g JOIN object_ancestors a ON a.ancestor_id = g.object_id WHERE g.connection_id = ?').get(connectionId) as {
          n: number;
        }
      ).n,
    page: async (connectionId, query, visibleFirst) => {
      let hits: Array<{ object_id: string }>;
      if (visibleFirst) {
        // The bench's titles have no cased letters beyond ASCII, so the LIKE alone decides (src/storage/titleFolding.ts).
        hits = prepared(
          `SELECT CAST(s.seq AS TEXT) AS seq, s.object_id FROM search_index s
           WHERE s.seq IN (SELECT sc.seq FROM grants g CROSS JOIN search_scope sc ON sc.ancestor_id = g.object_id WHERE g.connection_id = ? AND sc.title LIKE ? ESCAPE '\\')
             AND ${current} ORDER BY s.seq LIMIT 101`,
        ).all(connectionId, escape(query.toLowerCase()), workspaceId) as typeof hits;
      } else if ([...query].length >= 3) {
        hits = prepared(
          `SELECT CAST(s.seq AS TEXT) AS seq, s.object_id FROM search_fts CROSS JOIN search_index s ON s.seq = search_fts.rowid
           WHERE search_fts MATCH ? AND ${current} AND ${visible} ORDER BY search_fts.rowid LIMIT 101`,
        ).all(`"${query}"`, workspaceId, connectionId) as typeof hits;
      } else {
        hits = prepared(
          `SELECT CAST(s.seq AS TEXT) AS seq, s.object_id FROM search_index s INDEXED BY search_index_listing
           WHERE ${current} AND s.title LIKE ? ESCAPE '\\' AND ${visible} ORDER BY s.seq LIMIT 101`,
        ).all(workspaceId, escape(query), connectionId) as typeof hits;
      }
      const ids = hits.slice(0, 100).map((h) => h.object_id);
      const rows = rowsOf('objects', 'id', ids) as PresentedRow[];
      const { pageIds, sourceIds, databaseIds } = presentationIds(rows);
      if (pageIds.length)
        prepared(`SELECT page_id, property_id, value FROM property_values WHERE page_id IN (${placeholders(pageIds.length, false)})`).all(...pageIds);
      if (sourceIds.length)
        prepared(`SELECT id, parent_id, content FROM objects WHERE id IN (${placeholders(sourceIds.length, false)}) AND object = 'data_source'`).all(
          ...sourceIds,
        );
      rowsOf('objects', 'id', databaseIds);
      return ids.length;
    },
    close: async () => void db.close(),
  };
}

async function postgresRunner(url: string, workspaceId: string): Promise<RawRunner> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const escape = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const current = `s.workspace_id = $2 AND s.in_trash = 0 AND s.removed_in IS NULL`;
  const rowsOf = async (table: 'objects' | 'property_values', column: string, ids: string[]) =>
    ids.length ? (await client.query(`SELECT * FROM ${table} WHERE ${column} = ANY($1)`, [ids])).rows : [];
  return {
    describe: async () => `postgres ${(await client.query<{ server_version: string }>('SHOW server_version')).rows[0].server_version.split(' ')[0]}`,
    count: async (query) =>
      (await client.query(`SELECT count(*)::int AS n FROM search_index WHERE removed_in IS NULL AND lower(title) LIKE lower($1)`, [escape(query)])).rows[0].n,
    reachable: async (connectionId) =>
      (
        await client.query('SELECT count(*)::int AS n FROM grants g JOIN object_ancestors a ON a.ancestor_id = g.object_id WHERE g.connection_id = $1', [
          connectionId,
        ])
      ).rows[0].n,
    page: async (connectionId, query, visibleFirst) => {
      const text = visibleFirst
        ? `SELECT c.seq::text AS seq, s.object_id FROM (SELECT DISTINCT sc.seq FROM grants g JOIN search_scope sc ON sc.ancestor_id = g.object_id
             WHERE g.connection_id = $1 AND lower(sc.title) LIKE lower($3) ORDER BY sc.seq) c
           JOIN search_index s ON s.seq = c.seq WHERE ${current} ORDER BY c.seq LIMIT 101`
        : `SELECT s.seq::text AS seq, s.object_id FROM search_index s WHERE ${current} AND lower(s.title) LIKE lower($3)
           AND (SELECT 1 FROM object_ancestors a JOIN grants g ON g.object_id = a.ancestor_id WHERE a.descendant_id = s.object_id AND g.connection_id = $1 LIMIT 1) IS NOT NULL
           ORDER BY s.seq LIMIT 101`;
      // What the server sends (src/storage/repositories/search.ts): one transaction without JIT,
      // and for the ordered plan a capped count of matches that, past 2,000, forces the ordered walk.
      await client.query('BEGIN');
      let hits: Array<{ object_id: string }>;
      try {
        await client.query(`SELECT set_config('jit', 'off', true)`);
        let statement = text;
        if (!visibleFirst) {
          const probe = await client.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM (SELECT 1 FROM search_index s WHERE lower(s.title) LIKE lower($1) LIMIT 2000) matching',
            [escape(query)],
          );
          if (probe.rows[0].n >= 2000) {
            await client.query(`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
            statement = text.replace('AND lower(s.title) LIKE', "AND (lower(s.title) || '') LIKE");
          }
        }
        hits = (await client.query<{ object_id: string }>(statement, [connectionId, workspaceId, escape(query)])).rows;
      } finally {
        await client.query('COMMIT');
      }
      const ids = hits.slice(0, 100).map((h) => h.object_id);
      const rows = (await rowsOf('objects', 'id', ids)) as PresentedRow[];
      const { pageIds, sourceIds, databaseIds } = presentationIds(rows);
      if (pageIds.length) await client.query('SELECT page_id, property_id, value FROM property_values WHERE page_id = ANY($1)', [pageIds]);
      if (sourceIds.length) await client.query(`SELECT id, parent_id, content FROM objects WHERE id = ANY($1) AND object = 'data_source'`, [sourceIds]);
      await rowsOf('objects', 'id', databaseIds);
      return ids.length;
    },
    close: () => client.end(),
  };
}

// ---- the run ---------------------------------------------------------------------------------

/**
 * The server's own choice (src/storage/repositories/search.ts) at its default thresholds: visible
 * first below the reach threshold, unless a query the trigram index counts has fewer matches than
 * the cap. (The server counts every version in the index up to the cap; `matches` is close.)
 */
function visibleFirst(reach: number, query: string, matches: number): boolean {
  const cap = fewMatchesCap(reach);
  return reach < VISIBLE_FIRST_BELOW && !([...query].length >= 3 && cap > 0 && matches < cap);
}

export async function runSearchBench(config: SearchBenchConfig): Promise<SearchBenchResult> {
  if (config.build) await buildProject();
  const { manifest, seconds } = await prepareWorkspace(config);
  const url = process.env.DATABASE_URL;
  const raw = url ? await postgresRunner(url, manifest.workspaceId) : sqliteRunner(path.join(manifest.dataDir, 'folio.sqlite'), manifest.workspaceId);
  const server = await startTimedServer({ dataDir: manifest.dataDir, entry: config.entry, profile: config.profile });
  try {
    const store = await raw.describe();
    const reachable = {
      wide: await raw.reachable(manifest.connections.wide.id),
      narrow: await raw.reachable(manifest.connections.narrow.id),
    };
    const stats: QueryStats[] = [];
    for (const connection of ['wide', 'narrow'] as const) {
      for (const query of QUERIES) {
        const matches = await raw.count(query);
        stats.push({
          connection,
          query,
          matches,
          returned: 0,
          visibleFirst: visibleFirst(reachable[connection], query, matches),
          e2e: [],
          server: [],
          raw: [],
        });
      }
    }
    const client = jsonClient(server.url);
    const request = async (s: QueryStats) => {
      const r = await client.post<{ results?: unknown[] }>('/v1/search', manifest.connections[s.connection].token, { query: s.query, page_size: 100 });
      if (r.status !== 200) throw new Error(`search ${JSON.stringify(s.query)} answered ${r.status}: ${JSON.stringify(r.body)}`);
      s.returned = r.body.results?.length ?? 0;
      return { elapsed: r.elapsed, id: r.requestId };
    };
    const rawPage = async (s: QueryStats) => {
      const started = performance.now();
      await raw.page(manifest.connections[s.connection].id, s.query, s.visibleFirst);
      return performance.now() - started;
    };

    config.log(`warming up: ${config.warmup} requests and raw runs per query`);
    for (const s of stats) {
      for (let i = 0; i < config.warmup; i++) {
        await request(s);
        await rawPage(s);
      }
    }
    const ids = new Map<QueryStats, string[]>(stats.map((s) => [s, []]));
    for (let round = 1; round <= config.rounds; round++) {
      config.log(`round ${round}/${config.rounds}`);
      // Query by query, alternating which of HTTP and raw SQL goes first, so drift in the
      // machine's load falls on both alike.
      for (let i = 0; i < config.iterations; i++) {
        for (const s of stats) {
          if ((i + round) % 2 === 0) {
            const r = await request(s);
            ids.get(s)!.push(r.id);
            s.e2e.push(r.elapsed);
            s.raw.push(await rawPage(s));
          } else {
            s.raw.push(await rawPage(s));
            const r = await request(s);
            ids.get(s)!.push(r.id);
            s.e2e.push(r.elapsed);
          }
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const s of stats) {
      for (const id of ids.get(s)!) {
        const t = server.responseTimes.get(id);
        if (t !== undefined) s.server.push(t);
      }
      if (s.server.length < s.e2e.length * 0.95) throw new Error(`only ${s.server.length} of ${s.e2e.length} server timings were logged for ${s.query}`);
    }
    return {
      store,
      manifest,
      generatedSeconds: seconds,
      reachable,
      stats,
      config: {
        pages: config.pages,
        dir: config.dir,
        warmup: config.warmup,
        iterations: config.iterations,
        rounds: config.rounds,
        build: config.build,
        entry: config.entry,
      },
    };
  } finally {
    await server.stop();
    await raw.close();
  }
}

// ---- the report ---------------------------------------------------------------------------------

const f = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));

export function summarize(result: SearchBenchResult, connection: 'wide' | 'narrow') {
  const rows = result.stats.filter((s) => s.connection === connection);
  const all = (key: 'e2e' | 'server' | 'raw') => rows.flatMap((s) => s[key]);
  const e2e = all('e2e');
  const server = all('server');
  const raw = all('raw');
  return {
    e2eP50: percentile(e2e, 50),
    e2eP99: percentile(e2e, 99),
    serverP50: percentile(server, 50),
    serverP99: percentile(server, 99),
    rawP50: percentile(raw, 50),
    rawP99: percentile(raw, 99),
    serverRatio: percentile(server, 50) / percentile(raw, 50),
    e2eRatio: percentile(e2e, 50) / percentile(raw, 50),
  };
}

/** The targets hold for every query of both connections: each connection's summary is judged. */
export function verdict(result: SearchBenchResult): string {
  const sqlite = result.store.startsWith('sqlite');
  const met = (ok: boolean) => (sqlite ? (ok ? 'met' : 'NOT met') : 'no target on PostgreSQL');
  return (['wide', 'narrow'] as const)
    .map((connection) => {
      const s = summarize(result, connection);
      return [
        `${connection}: end to end p50 ${f(s.e2eP50)} ms (target ≤ ${TARGETS.p50}: ${met(s.e2eP50 <= TARGETS.p50)})`,
        `p99 ${f(s.e2eP99)} ms (target ≤ ${TARGETS.p99}: ${met(s.e2eP99 <= TARGETS.p99)})`,
        `in-server / raw SQL at p50 ${s.serverRatio.toFixed(2)} (target ≤ ${TARGETS.ratio}: ${met(s.serverRatio <= TARGETS.ratio)})`,
        `end to end / raw SQL ${s.e2eRatio.toFixed(2)}`,
      ].join('; ');
    })
    .join('\n');
}

export function markdownTables(result: SearchBenchResult): string {
  const out: string[] = [];
  for (const connection of ['wide', 'narrow'] as const) {
    const cap = fewMatchesCap(result.reachable[connection]);
    const plan =
      result.reachable[connection] >= VISIBLE_FIRST_BELOW
        ? 'ordered plan'
        : cap > 0
          ? `visible-first plan, ordered for fewer than ${cap} matches`
          : 'visible-first plan';
    out.push(
      `**${connection}** connection (${result.manifest.connections[connection].description}; ${result.reachable[connection].toLocaleString('en')} objects reachable, ${plan}):`,
      '',
      '| query | titles matching | returned | e2e p50 | e2e p99 | server p50 | server p99 | raw SQL p50 | raw SQL p99 | server / raw (p50) |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const s of result.stats.filter((x) => x.connection === connection)) {
      out.push(
        `| \`${s.query}\`${s.visibleFirst || result.reachable[connection] >= VISIBLE_FIRST_BELOW ? '' : ' (ordered)'} | ${s.matches.toLocaleString('en')} | ${s.returned} | ${f(percentile(s.e2e, 50))} | ${f(percentile(s.e2e, 99))} | ${f(percentile(s.server, 50))} | ${f(
          percentile(s.server, 99),
        )} | ${f(percentile(s.raw, 50))} | ${f(percentile(s.raw, 99))} | ${(percentile(s.server, 50) / percentile(s.raw, 50)).toFixed(2)} |`,
      );
    }
    const t = summarize(result, connection);
    out.push(
      `| **all ten** | | | **${f(t.e2eP50)}** | **${f(t.e2eP99)}** | **${f(t.serverP50)}** | **${f(t.serverP99)}** | **${f(t.rawP50)}** | **${f(t.rawP99)}** | **${t.serverRatio.toFixed(2)}** |`,
      '',
    );
  }
  return out.join('\n');
}

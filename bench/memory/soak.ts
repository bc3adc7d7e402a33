/**
 * The memory soak (issue 29 item 9): the compiled server, in its own process, on a generated
 * workspace of N pages (scripts/generateWorkspace.ts), under a sustained mixed load at a fixed
 * rate (autocannon's overallRate: the machine is shared, so the load is moderate and steady, not
 * flat out), while the server's resident memory is read from /proc/<pid>/status every few seconds.
 * The load writes (pages created, blocks appended), so it runs on a copy of the workspace, never
 * on one another bench reads.
 *
 * The mix, per ten requests: 3 page retrievals, 2 searches (a quarter of them with a query text
 * seen once, so a cache keyed by query text that never forgets would show), 2 data-source queries,
 * 1 page created, 1 block appended, 1 users/me.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon, { type Request, type Result } from 'autocannon';
import type { WorkspaceManifest } from '../../scripts/generateWorkspace.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { median } from '../lib/compare.js';
import { buildProject, cleanEnv, freePort, spawnServer, type ServerProcess } from '../lib/processes.js';

/** The issue's line: under this per process, and no growth over a 30-minute soak. */
export const RSS_LIMIT_MB = 300;
/** "No growth": the fitted slope after the first fifth (warm-up: caches filling) stays under this. */
export const GROWTH_LIMIT_MB_PER_10_MIN = 5;

export interface SoakConfig {
  /** Holds folio.sqlite and search-workspace.json (on PostgreSQL only the manifest; DATABASE_URL names the store). */
  dir: string;
  seconds: number;
  /** Requests per second over all connections (autocannon overallRate). */
  rate: number;
  connections: number;
  processes: number;
  sampleSeconds: number;
  /** FOLIO_* settings the server is started with besides the bench's own (e.g. FOLIO_SQLITE_MMAP_MB=0). */
  folioEnv: Record<string, string>;
  build: boolean;
  entry: string;
  log(line: string): void;
}

export interface RssSample {
  /** Seconds since the load began. */
  at: number;
  pid: number;
  /** VmRSS, RssAnon (heap, SQLite's page cache, buffers), RssFile (mapped files: code, SQLite's memory map), in MB. */
  rss: number;
  anon: number;
  file: number;
}

/** The V8 heap of the one server process (from its /metrics), in MB. */
export interface HeapSample {
  at: number;
  used: number;
  total: number;
  external: number;
}

export interface ProcessFigures {
  pid: number;
  role: 'server' | 'primary' | 'worker';
  samples: number;
  maxRss: number;
  maxAnon: number;
  firstFifthRss: number;
  lastFifthRss: number;
  firstFifthAnon: number;
  lastFifthAnon: number;
  /** Least-squares slope of RSS over the last four fifths, MB per 10 minutes; the same of RssAnon. */
  slopeRss: number;
  slopeAnon: number;
}

export interface SoakResult {
  store: string;
  manifest: WorkspaceManifest;
  config: Omit<SoakConfig, 'log'>;
  processes: ProcessFigures[];
  requests: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  averageRate: number;
  latencyP50: number;
  latencyP99: number;
  sampled: { pages: number; dataSources: number };
  /** One process only: /metrics would answer from any of several. */
  heap: { maxUsed: number; maxTotal: number; lastFifthUsed: number; lastFifthTotal: number; maxExternal: number } | null;
}

const MB = 1024;

/** VmRSS, RssAnon and RssFile of a process in MB, or null once it has gone. */
export function readRss(pid: number): { rss: number; anon: number; file: number } | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / MB, anon: kb('RssAnon') / MB, file: kb('RssFile') / MB };
}

/** The processes a primary forked (FOLIO_PROCESSES > 1), from /proc. */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function slopePer10Min(points: ReadonlyArray<{ at: number; value: number }>): number {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.at, 0) / n;
  const my = points.reduce((a, p) => a + p.value, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.at - mx) * (p.value - my);
    den += (p.at - mx) ** 2;
  }
  return den === 0 ? NaN : (num / den) * 600;
}

export function figuresOf(pid: number, role: ProcessFigures['role'], samples: readonly RssSample[], seconds: number): ProcessFigures {
  const own = samples.filter((s) => s.pid === pid);
  const fifth = seconds / 5;
  const first = own.filter((s) => s.at <= fifth);
  const last = own.filter((s) => s.at >= seconds - fifth);
  const settled = own.filter((s) => s.at >= fifth);
  return {
    pid,
    role,
    samples: own.length,
    maxRss: Math.max(...own.map((s) => s.rss)),
    maxAnon: Math.max(...own.map((s) => s.anon)),
    firstFifthRss: median(first.map((s) => s.rss)),
    lastFifthRss: median(last.map((s) => s.rss)),
    firstFifthAnon: median(first.map((s) => s.anon)),
    lastFifthAnon: median(last.map((s) => s.anon)),
    slopeRss: slopePer10Min(settled.map((s) => ({ at: s.at, value: s.rss }))),
    slopeAnon: slopePer10Min(settled.map((s) => ({ at: s.at, value: s.anon }))),
  };
}

/** heap used/total and external memory from the server's Prometheus text (prom-client's default metrics). */
async function readHeap(url: string): Promise<Omit<HeapSample, 'at'> | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^folio_nodejs_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) / 1024 ** 2;
    return { used: value('heap_size_used_bytes'), total: value('heap_size_total_bytes'), external: value('external_memory_bytes') };
  } catch {
    return null;
  }
}

// ---- the load -------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

async function call(url: string, token: string, method: string, urlPath: string, body?: unknown): Promise<Json> {
  const response = await fetch(url + urlPath, {
    method,
    headers: { authorization: `Bearer ${token}`, 'notion-version': LATEST_VERSION, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(`${method} ${urlPath} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Pages and data sources the wide connection can reach, found through search as a client would. */
async function sampleIds(url: string, token: string): Promise<{ pages: string[]; dataSources: string[] }> {
  const pages = new Set<string>();
  const dataSources = new Set<string>();
  for (const query of ['notes', 'meeting', 'design review', 'roadmap', 'postmortem', 'onboarding', 'weekly sync', 'project', 'plan', 'review']) {
    const found = await call(url, token, 'POST', '/v1/search', { query, page_size: 100, filter: { property: 'object', value: 'page' } });
    for (const r of found.results as Array<{ id: string; in_trash?: boolean; archived?: boolean }>) if (!r.in_trash && !r.archived) pages.add(r.id);
  }
  for (const query of ['', 'e', 'a']) {
    const found = await call(url, token, 'POST', '/v1/search', { query, page_size: 100, filter: { property: 'object', value: 'data_source' } });
    for (const r of found.results as Array<{ id: string }>) dataSources.add(r.id);
  }
  if (pages.size === 0 || dataSources.size === 0) throw new Error(`search found ${pages.size} pages and ${dataSources.size} data sources to load; need both`);
  return { pages: [...pages], dataSources: [...dataSources] };
}

const WORDS = ['notes', 'meeting', 'design', 'review', 'roadmap', 'weekly sync', 'postmortem', 'onboarding', 'plan', 'launch', 'e', 'project zephyr'];

function mixedRequests(ids: { pages: string[]; dataSources: string[] }): Request[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)];
  let unique = 0;
  const retrieve: Request = { method: 'GET', path: '/v1/pages/x', setupRequest: (r) => ({ ...r, path: `/v1/pages/${pick(ids.pages)}` }) };
  const search: Request = {
    method: 'POST',
    path: '/v1/search',
    setupRequest: (r) => {
      const query = Math.random() < 0.25 ? `${pick(WORDS)} ${(unique += 1)}` : pick(WORDS);
      return { ...r, body: JSON.stringify({ query, page_size: 20 }) };
    },
  };
  const query: Request = {
    method: 'POST',
    path: '/v1/data_sources/x/query',
    setupRequest: (r) => ({ ...r, path: `/v1/data_sources/${pick(ids.dataSources)}/query`, body: JSON.stringify({ page_size: 25 }) }),
  };
  const create: Request = {
    method: 'POST',
    path: '/v1/pages',
    setupRequest: (r) => ({
      ...r,
      body: JSON.stringify({
        parent: { page_id: pick(ids.pages) },
        properties: { title: { title: [{ text: { content: `Soak ${randomBytes(4).toString('hex')}` } }] } },
      }),
    }),
  };
  const append: Request = {
    method: 'PATCH',
    path: '/v1/blocks/x/children',
    setupRequest: (r) => ({
      ...r,
      path: `/v1/blocks/${pick(ids.pages)}/children`,
      body: JSON.stringify({
        children: [
          { object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: `soak ${randomBytes(8).toString('hex')}` } }] } },
        ],
      }),
    }),
  };
  const me: Request = { method: 'GET', path: '/v1/users/me' };
  return [retrieve, search, query, retrieve, create, search, query, retrieve, append, me];
}

// ---- the run --------------------------------------------------------------------------------------

async function startServer(config: SoakConfig, dataDir: string): Promise<ServerProcess> {
  const port = await freePort();
  const env = cleanEnv((name) => name.startsWith('FOLIO_') || name === 'DATABASE_URL' || name === 'REDIS_URL');
  Object.assign(env, {
    FOLIO_HOST: '127.0.0.1',
    FOLIO_PORT: String(port),
    FOLIO_DATA_DIR: dataDir,
    FOLIO_LOG_LEVEL: 'warn',
    FOLIO_RATE_LIMIT: '1000000',
    FOLIO_ADMIN_TOKEN: `bench-${randomBytes(16).toString('hex')}`,
    FOLIO_PROCESSES: String(config.processes),
    ...config.folioEnv,
  });
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  return spawnServer({ name: 'folio', args: [config.entry, 'serve'], env, port, readyPath: '/readyz', timeoutMs: 180_000 });
}

export async function runMemorySoak(config: SoakConfig): Promise<SoakResult> {
  const manifestFile = path.join(config.dir, 'search-workspace.json');
  if (!fs.existsSync(manifestFile)) {
    throw new Error(`${manifestFile} not found: generate a workspace first (scripts/generateWorkspace.ts --data-dir ${config.dir}) or copy one there`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as WorkspaceManifest;
  if (config.build) await buildProject();
  const server = await startServer(config, config.dir);
  const token = manifest.connections.wide.token;
  try {
    const ids = await sampleIds(server.url, token);
    const store = process.env.DATABASE_URL ? 'postgres' : 'sqlite';
    config.log(
      `${store}, ${(manifest.counts.pages + manifest.counts.dataSources).toLocaleString('en')} pages and data sources; loading ${ids.pages.length} pages and ${ids.dataSources.length} data sources at ${config.rate} req/s for ${config.seconds} s`,
    );

    const primary = server.child.pid!;
    const samples: RssSample[] = [];
    const heaps: HeapSample[] = [];
    const started = performance.now();
    const sample = () => {
      const at = (performance.now() - started) / 1000;
      if (config.processes === 1) void readHeap(server.url).then((h) => h && heaps.push({ at, ...h }));
      const pids = config.processes > 1 ? [primary, ...childrenOf(primary)] : [primary];
      for (const pid of pids) {
        const r = readRss(pid);
        if (r) samples.push({ at, pid, ...r });
      }
    };
    let lastLog = 0;
    let served = 0;
    sample();
    const timer = setInterval(() => {
      sample();
      const at = (performance.now() - started) / 1000;
      if (at - lastLog >= 60) {
        lastLog = at;
        const now = samples.filter((s) => s.at === samples[samples.length - 1].at);
        const heap = heaps[heaps.length - 1];
        config.log(
          `${Math.round(at)} s: ${served.toLocaleString('en')} responses; ${now.map((s) => `pid ${s.pid} RSS ${s.rss.toFixed(0)} MB (anon ${s.anon.toFixed(0)}, file ${s.file.toFixed(0)})`).join('; ')}${heap ? `; heap ${heap.used.toFixed(0)} of ${heap.total.toFixed(0)} MB, external ${heap.external.toFixed(0)}` : ''}`,
        );
      }
    }, config.sampleSeconds * 1000);

    const instance = autocannon({
      url: server.url,
      connections: config.connections,
      overallRate: config.rate,
      duration: config.seconds,
      headers: { authorization: `Bearer ${token}`, 'notion-version': LATEST_VERSION, 'content-type': 'application/json' },
      requests: mixedRequests(ids),
    });
    instance.on('response', () => (served += 1));
    let result: Result;
    try {
      result = await instance;
    } finally {
      clearInterval(timer);
    }
    sample();

    const pids = [...new Set(samples.map((s) => s.pid))];
    const processes = pids.map((pid) => figuresOf(pid, config.processes === 1 ? 'server' : pid === primary ? 'primary' : 'worker', samples, config.seconds));
    const lastHeaps = heaps.filter((h) => h.at >= config.seconds * 0.8);
    const heap =
      heaps.length === 0
        ? null
        : {
            maxUsed: Math.max(...heaps.map((h) => h.used)),
            maxTotal: Math.max(...heaps.map((h) => h.total)),
            lastFifthUsed: median(lastHeaps.map((h) => h.used)),
            lastFifthTotal: median(lastHeaps.map((h) => h.total)),
            maxExternal: Math.max(...heaps.map((h) => h.external)),
          };
    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
    return {
      store,
      manifest,
      config: {
        dir: config.dir,
        seconds: config.seconds,
        rate: config.rate,
        connections: config.connections,
        processes: config.processes,
        sampleSeconds: config.sampleSeconds,
        folioEnv: config.folioEnv,
        build: config.build,
        entry: config.entry,
      },
      processes,
      requests: result.requests.total,
      non2xx: result.non2xx,
      statusCodes,
      errors: result.errors,
      timeouts: result.timeouts,
      averageRate: result.requests.average,
      latencyP50: result.latency.p50,
      latencyP99: result.latency.p99,
      sampled: { pages: ids.pages.length, dataSources: ids.dataSources.length },
      heap,
    };
  } finally {
    await server.stop();
  }
}

// ---- the report -----------------------------------------------------------------------------------

const mb = (v: number) => (Number.isNaN(v) ? '–' : v.toFixed(0));
const slope = (v: number) => (Number.isNaN(v) ? '–' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}`);

export function markdownTable(result: SoakResult): string {
  const lines = [
    '| process | samples | max RSS MB | RSS MB, first fifth (median) | RSS MB, last fifth (median) | RSS slope MB / 10 min | max anon MB | anon MB first → last fifth | anon slope MB / 10 min |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const p of result.processes) {
    lines.push(
      `| ${p.role} (pid ${p.pid}) | ${p.samples} | ${mb(p.maxRss)} | ${mb(p.firstFifthRss)} | ${mb(p.lastFifthRss)} | ${slope(p.slopeRss)} | ${mb(p.maxAnon)} | ${mb(p.firstFifthAnon)} → ${mb(p.lastFifthAnon)} | ${slope(p.slopeAnon)} |`,
    );
  }
  return lines.join('\n');
}

export function summaryLine(result: SoakResult): string {
  const codes = Object.entries(result.statusCodes)
    .map(([code, n]) => `${n.toLocaleString('en')}× ${code}`)
    .join(', ');
  const heap = result.heap
    ? `; V8 heap (from /metrics) used max ${mb(result.heap.maxUsed)} MB, of a heap of max ${mb(result.heap.maxTotal)} MB (last fifth medians ${mb(result.heap.lastFifthUsed)} of ${mb(result.heap.lastFifthTotal)}), external max ${mb(result.heap.maxExternal)} MB`
    : '';
  return `${result.requests.toLocaleString('en')} requests in ${result.config.seconds} s (${result.averageRate.toFixed(0)} req/s on average, target rate ${result.config.rate}); latency p50 ${result.latencyP50} ms, p99 ${result.latencyP99} ms; status codes ${codes}; ${result.non2xx} non-2xx, ${result.errors} connection errors (${result.timeouts} timeouts)${heap}`;
}

/** Judged on the serving processes (a primary with workers serves nothing). */
export function verdict(result: SoakResult): string {
  const serving = result.processes.filter((p) => p.role !== 'primary');
  const maxRss = Math.max(...serving.map((p) => p.maxRss));
  const maxSlope = Math.max(...serving.map((p) => p.slopeRss));
  const under = maxRss < RSS_LIMIT_MB;
  const flat = maxSlope < GROWTH_LIMIT_MB_PER_10_MIN;
  return [
    `max RSS per serving process ${mb(maxRss)} MB (target < ${RSS_LIMIT_MB}: ${under ? 'met' : 'NOT met'})`,
    `RSS slope after the first fifth ${slope(maxSlope)} MB / 10 min (no growth, < ${GROWTH_LIMIT_MB_PER_10_MIN}: ${flat ? 'met' : 'NOT met'})`,
    result.non2xx + result.errors > 0 ? `${result.non2xx + result.errors} failed requests` : 'no failed requests',
  ].join('; ');
}

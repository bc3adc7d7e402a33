/**
 * The view-query benchmark (issue 25 item 4): the first page of a view query against the first
 * page of `POST /v1/data_sources/{id}/query` with the same filter and sorts, over the data source
 * scripts/generateDataSource.ts makes (reused while the manifest in --dir matches).
 *
 *   node --import tsx bench/viewQuery/main.ts [--pages 10000] [--dir /tmp/folio-view-bench-10000] [--iterations 30] [--no-build]
 *
 * For each case a view is made with the case's filter and sorts, then, one request at a time over
 * one kept-alive connection to the compiled server, interleaved: the data-source query's first
 * page (page_size 100, full page objects), a new view query (which answers the first 100 as
 * references through the same plan and a count, then keeps up to 10,000 ids), and at once the page
 * after it read from the kept result (which waits while the rest of the result is being kept). Before timing, the view query's ids must equal the data-source query's,
 * page for page. Times are Fastify's responseTime in the server (ms), median and p95.
 */
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import { generateDataSource, TASKS, type DataSourceManifest } from '../../scripts/generateDataSource.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { buildProject } from '../lib/processes.js';
import { describeMachine } from '../lib/report.js';
import { jsonClient, percentile, startTimedServer } from '../lib/timedServer.js';
import { median } from '../lib/compare.js';

type Json = Record<string, any>;

/** Filters and sorts by property name (scripts/generateDataSource.ts TASKS). */
const CASES: { key: string; label: string; filter?: Json; sorts?: Json[] }[] = [
  { key: 'all', label: 'no filter, default order' },
  {
    key: 'select',
    label: `${TASKS.select} = High, by ${TASKS.number} descending`,
    filter: { property: TASKS.select, select: { equals: 'High' } },
    sorts: [{ property: TASKS.number, direction: 'descending' }],
  },
  {
    key: 'and',
    label: `not ${TASKS.checkbox} and ${TASKS.number} > 5, by ${TASKS.date}`,
    filter: {
      and: [
        { property: TASKS.checkbox, checkbox: { equals: false } },
        { property: TASKS.number, number: { greater_than: 5 } },
      ],
    },
    sorts: [{ property: TASKS.date, direction: 'ascending' }],
  },
  {
    key: 'text',
    label: `${TASKS.title} contains "a", by created time`,
    filter: { property: TASKS.title, title: { contains: 'a' } },
    sorts: [{ timestamp: 'created_time', direction: 'descending' }],
  },
];

function get<T>(baseUrl: string, urlPath: string, token: string): Promise<{ status: number; requestId: string; body: T }> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: urlPath,
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, 'notion-version': LATEST_VERSION },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            requestId: String(response.headers['x-request-id'] ?? ''),
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as T,
          }),
        );
        response.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '10000' },
      dir: { type: 'string' },
      iterations: { type: 'string', default: '30' },
      'no-build': { type: 'boolean', default: false },
      entry: { type: 'string', default: 'dist/src/cli.js' },
    },
  });
  const pages = Number(values.pages);
  const iterations = Number(values.iterations);
  const dir = values.dir ?? path.join(os.tmpdir(), `folio-view-bench-${pages}`);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (!values['no-build']) await buildProject();
  const file = path.join(dir, 'query-data-source.json');
  let manifest: DataSourceManifest;
  if (fs.existsSync(file)) {
    manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as DataSourceManifest;
    if (manifest.counts.pages !== pages) throw new Error(`${file} describes ${manifest.counts.pages} pages, not ${pages}: choose another --dir`);
    log(`reusing ${file}`);
  } else {
    log(`generating ${pages} pages in ${dir}`);
    manifest = await generateDataSource({ pages, related: 1000, dataDir: dir, out: file, seed: 42, batch: 5000 });
  }
  // No shedding: on a loaded machine the kept result's reads (SQLite's, in the server's thread) hold
  // the event loop past the 1 s threshold, and the next request would be answered 529.
  const server = await startTimedServer({ dataDir: manifest.dataDir, entry: values.entry, env: { FOLIO_MAX_EVENT_LOOP_DELAY_MS: '0' } });
  const client = jsonClient(server.url);
  const token = manifest.connection.token;
  const sourceId = manifest.tasks.dataSourceId;
  try {
    const rows: string[] = [];
    for (const c of CASES) {
      const body = { ...(c.filter ? { filter: c.filter } : {}), ...(c.sorts ? { sorts: c.sorts } : {}) };
      const made = await client.post<Json>('/v1/views', token, {
        database_id: manifest.tasks.databaseId,
        data_source_id: sourceId,
        name: `bench ${c.key}`,
        type: 'table',
        ...body,
      });
      if (made.status !== 200) throw new Error(`creating the view of (${c.key}): ${JSON.stringify(made.body)}`);
      const viewId = made.body.id as string;
      const dsQuery = () => client.post<Json>(`/v1/data_sources/${sourceId}/query`, token, { ...body, page_size: 100 });
      const viewQuery = () => client.post<Json>(`/v1/views/${viewId}/queries`, token, { page_size: 100 });

      // The same ids, page for page, before anything is timed.
      const a = (await dsQuery()).body;
      const v = (await viewQuery()).body;
      const ids = (list: Json[]) => list.map((r) => r.id).join(',');
      if (ids(a.results) !== ids(v.results)) throw new Error(`(${c.key}): the view query's first page differs from the data-source query's`);
      if (v.next_cursor) {
        const a2 = (await client.post<Json>(`/v1/data_sources/${sourceId}/query`, token, { ...body, page_size: 100, start_cursor: a.next_cursor })).body;
        const v2 = (await get<Json>(server.url, `/v1/views/${viewId}/queries/${v.id}?start_cursor=${v.next_cursor}&page_size=100`, token)).body;
        if (!Array.isArray(a2.results) || !Array.isArray(v2.results))
          throw new Error(`(${c.key}): the second pages: ${JSON.stringify(a2)} ${JSON.stringify(v2)}`);
        if (ids(a2.results) !== ids(v2.results)) throw new Error(`(${c.key}): the view query's second page differs from the data-source query's`);
      }

      const timed: Record<'ds' | 'vq' | 'next', string[]> = { ds: [], vq: [], next: [] };
      for (let n = 0; n < iterations + 3; n++) {
        const record = n >= 3;
        const first = n % 2 === 0;
        if (first) {
          const r = await dsQuery();
          if (record) timed.ds.push(r.requestId);
        }
        const q = await viewQuery();
        if (record) timed.vq.push(q.requestId);
        // The page after it, at once: it waits while the rest of the result is still being kept,
        // and the data-source query is never timed queued behind that.
        if (q.body.next_cursor) {
          const r = await get<Json>(server.url, `/v1/views/${viewId}/queries/${q.body.id}?start_cursor=${q.body.next_cursor}&page_size=100`, token);
          if (record) timed.next.push(r.requestId);
        }
        if (!first) {
          const r = await dsQuery();
          if (record) timed.ds.push(r.requestId);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      const ms = (ids: string[]) => ids.map((id) => server.responseTimes.get(id)).filter((t): t is number => t !== undefined);
      const cell = (list: number[]) => (list.length === 0 ? '–' : `${median(list).toFixed(1)} / ${percentile(list, 95).toFixed(1)}`);
      rows.push(`| (${c.key}) ${c.label} | ${v.total_count} | ${cell(ms(timed.ds))} | ${cell(ms(timed.vq))} | ${cell(ms(timed.next))} |`);
    }
    process.stdout.write(
      [
        '',
        `view queries, ${manifest.store}, ${manifest.counts.pages.toLocaleString('en')} pages, ${iterations} runs each; ${describeMachine()}`,
        'server time in ms, median / p95',
        '',
        '| case | view query total_count | data source query, first page | view query, create (first page) | view query, next page at once (waits for the kept result) |',
        '| --- | --- | --- | --- | --- |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    client.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

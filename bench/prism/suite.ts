import { compareTargets, type Comparison, type Target, type TargetResult } from '../lib/compare.js';
import { startFolioServer, type FolioServer } from '../lib/folio.js';
import { buildProject } from '../lib/processes.js';
import type { Suite } from '../lib/suite.js';
import { ensurePrism, startPrism, PRISM_VERSION, type PrismServer } from './prismServer.js';
import { benchRequests, DOCUMENT_VERSION, type BenchRequest } from './requests.js';
import { benchWorkspace, ROWS, SEARCH_QUERY } from './workspace.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

interface Verdict {
  folio: string | null;
  prism: string | null;
}

async function ask(baseUrl: string, request: BenchRequest, headers: Record<string, string>): Promise<{ status: number; answer: unknown }> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // kept as text: the judge says it is not the object expected
  }
  return { status: response.status, answer };
}

const round = (v: number) => Math.round(v).toLocaleString('en');
const answered = (why: string | null) => (why === null ? 'yes' : `no: ${why.replace(/\|/g, '\\|')}`);

/** The side-by-side table: one line per request type, both targets' medians and whether each answered right. */
function sideBySide(requests: readonly BenchRequest[], comparison: Comparison, verdicts: Map<string, Verdict>): string {
  const find = (name: string) => comparison.targets.find((t) => t.name === name)!;
  const lines = [
    '| request | Folio req/s | Folio p99 ms | Prism req/s | Prism p99 ms | Folio answers right | Prism answers right |',
    '|---|--:|--:|--:|--:|---|---|',
  ];
  for (const r of requests) {
    const f = find(`${r.name} · folio`);
    const p = find(`${r.name} · prism`);
    const v = verdicts.get(r.name)!;
    lines.push(
      `| ${r.name} | ${round(f.medianRequestsPerSecond)} | ${f.medianP99} | ${round(p.medianRequestsPerSecond)} | ${p.medianP99} | ${answered(v.folio)} | ${answered(v.prism)} |`,
    );
  }
  return lines.join('\n');
}

/** Where Folio is ahead: more requests per second while answering right (a wrong answer is never ahead). */
function verdictLine(requests: readonly BenchRequest[], comparison: Comparison, verdicts: Map<string, Verdict>): string {
  const rate = (name: string): TargetResult => comparison.targets.find((t) => t.name === name)!;
  const ahead: string[] = [];
  const behind: string[] = [];
  for (const r of requests) {
    const ratio = rate(`${r.name} · folio`).medianRequestsPerSecond / rate(`${r.name} · prism`).medianRequestsPerSecond;
    const label = `${r.name} ${ratio.toFixed(2)}×`;
    if (verdicts.get(r.name)!.folio === null && ratio > 1) ahead.push(label);
    else behind.push(label + (verdicts.get(r.name)!.folio === null ? '' : ', wrong answer'));
  }
  const all = behind.length === 0;
  return `Folio ahead of Prism, answering right, on ${ahead.length} of ${requests.length} request types (${ahead.join(', ') || 'none'}); not ahead on ${behind.join(', ') || 'none'}; target every type: ${all ? 'met' : 'NOT met'}`;
}

/**
 * PRISM_BENCH_REQUESTS=search,users-me runs only those request types of the mix (all when unset),
 * e.g. search at 50 connections at one and two processes (issue 29 item 2):
 * `FOLIO_PROCESSES=2 PRISM_BENCH_REQUESTS=search npm run bench -- prism`.
 */
function chosenRequests(all: BenchRequest[]): BenchRequest[] {
  const names = (process.env.PRISM_BENCH_REQUESTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) return all;
  const unknown = names.filter((name) => !all.some((r) => r.name === name));
  if (unknown.length) throw new Error(`PRISM_BENCH_REQUESTS names ${unknown.join(', ')}; the mix has ${all.map((r) => r.name).join(', ')}`);
  return all.filter((r) => names.includes(r.name));
}

export const suite: Suite = {
  name: 'prism',
  description: `Folio beside Prism ${PRISM_VERSION} mocking the published OpenAPI document: search, retrieve page, data-source query, users-me, create page, append blocks`,
  async run(options) {
    await ensurePrism(log);
    if (options.build) await buildProject();
    const workspace = benchWorkspace();
    let folio: FolioServer | null = null;
    let prism: PrismServer | null = null;
    try {
      [folio, prism] = await Promise.all([startFolioServer({ profile: options.profile, entry: options.folioEntry }), startPrism(workspace.token)]);
      const imported = await folio.admin('POST', '/import', workspace.fixture);
      log(`seeded Folio: ${JSON.stringify(imported.counts)}`);

      const headers = { authorization: `Bearer ${workspace.token}`, 'notion-version': DOCUMENT_VERSION, 'content-type': 'application/json' };
      const requests = chosenRequests(benchRequests(workspace));
      const verdicts = new Map<string, Verdict>();
      for (const r of requests) {
        const [f, p] = [await ask(folio.url, r, headers), await ask(prism.url, r, headers)];
        const verdict = { folio: r.judge(f.status, f.answer), prism: r.judge(p.status, p.answer) };
        verdicts.set(r.name, verdict);
        log(`${r.name}: folio ${answered(verdict.folio)}; prism ${answered(verdict.prism)}`);
      }

      // Reads first, then writes: pages and blocks created under load must not weigh on the reads.
      const ordered = [...requests.filter((r) => !r.writes), ...requests.filter((r) => r.writes)];
      const merged: Comparison = { targets: [], failures: [], options };
      for (const r of ordered) {
        const target = (name: string, url: string): Target => ({
          name: `${r.name} · ${name}`,
          url: url + r.path,
          method: r.method,
          // Bodiless requests without a content type: Folio refuses an empty JSON body.
          headers: r.body === undefined ? { authorization: headers.authorization, 'notion-version': DOCUMENT_VERSION } : headers,
          body: r.body === undefined ? undefined : JSON.stringify(r.body),
        });
        log(`-- ${r.name}`);
        const comparison = await compareTargets([target('folio', folio.url), target('prism', prism.url)], options, log);
        merged.failures.push(...comparison.failures);
        merged.targets.push(...comparison.targets);
      }
      // In the requests' own order, which the table follows.
      merged.targets.sort((a, b) => requests.findIndex((r) => a.name.startsWith(`${r.name} ·`)) - requests.findIndex((r) => b.name.startsWith(`${r.name} ·`)));
      const table = sideBySide(requests, merged, verdicts);
      return {
        store: folio.store,
        comparison: merged,
        verdict: verdictLine(requests, merged, verdicts),
        details: table,
        notes: [
          `Folio processes: ${process.env.FOLIO_PROCESSES ?? '1'} (FOLIO_PROCESSES); request types: ${requests.map((r) => r.name).join(', ')}`,
          `Prism ${PRISM_VERSION} with its defaults (static examples, request validation on): \`${prism.command}\``,
          `Folio: ${options.folioEntry} seeded through \`POST /admin/v1/import\`: one connection shared a parent page holding a data source of ${ROWS.toLocaleString('en')} rows (select Status, number Points; the query filters Status = Blocked, ${workspace.blockedRows} rows), 200 notes (search "${SEARCH_QUERY}" matches ${workspace.searchTitles.length}) and a page to append to`,
          'Prism logs every request to its stdout (its default), which the runner reads; the data-source query uses `/v1/data_sources/{id}/query` on both, the path the document has',
          `Both sent the same requests: \`Authorization: Bearer …\`, \`Notion-Version: ${DOCUMENT_VERSION}\` (the document's default); each checked once before loading; reads measured before writes (create page, then append blocks, one paragraph each time to the same page)`,
        ],
      };
    } finally {
      await Promise.all([folio?.stop(), prism?.stop()]);
    }
  },
};

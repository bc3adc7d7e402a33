/**
 * The memory soak on its own (docs/benchmarks.md, "memory"):
 *
 *   node --import tsx bench/memory/main.ts [--dir /work/bench-data/memory-1m] [--minutes 30] [--rate 200] [--processes 1] [--record]
 *
 * --dir holds a generated workspace (scripts/generateWorkspace.ts writes folio.sqlite and
 * search-workspace.json there); the soak writes to it, so give it a copy, never a workspace
 * another bench reads. On PostgreSQL, DATABASE_URL names the store and --dir holds the manifest.
 * With --record, a dated section is appended to docs/benchmarks.md.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { redactedDatabaseUrl } from '../lib/folio.js';
import { appendRecord, captureStart, describeMachine } from '../lib/report.js';
import { markdownTable, runMemorySoak, summaryLine, verdict, type SoakResult } from './soak.js';

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, instead was "${raw}"`);
  return value;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');

export function recordSection(result: SoakResult, context: { startedAt: Date; loadBefore: string; command: string }): string {
  const m = result.manifest;
  const c = result.config;
  return [
    `### memory, ${result.store}, ${context.startedAt.toISOString()}`,
    '',
    `- Machine: ${describeMachine()}`,
    `- Load average (1/5/15 min) before / after: ${context.loadBefore} → ${loadAverage()}`,
    `- Workspace: a writable copy of ${m.counts.pages.toLocaleString('en')} pages and ${m.counts.dataSources.toLocaleString('en')} data sources (scripts/generateWorkspace.ts seed ${m.seed}); ${result.sampled.pages} pages and ${result.sampled.dataSources} data sources under load`,
    `- Load: a fixed rate of ${c.rate} requests/s (autocannon overallRate, ${Math.min(c.connections, c.rate)} connections) for ${c.seconds / 60} min — moderate on purpose, the machine is shared; per ten requests 3 page retrievals, 2 searches (a quarter with a query text never seen before), 2 data-source queries, 1 page created, 1 block appended, 1 users/me; wide connection`,
    `- Server: \`node ${c.entry} serve\`, FOLIO_PROCESSES=${c.processes}${Object.entries(c.folioEnv)
      .map(([n, v]) => `, ${n}=${v}`)
      .join(
        '',
      )}, warn logs, rate limiter on; VmRSS, RssAnon and RssFile read from /proc/<pid>/status every ${c.sampleSeconds} s; slopes are least squares over the last four fifths`,
    `- ${summaryLine(result)}`,
    `- Command: \`${context.command}\``,
    '',
    markdownTable(result),
    '',
    `**${verdict(result)}**`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dir: { type: 'string', default: '/work/bench-data/memory-1m' },
      minutes: { type: 'string' },
      rate: { type: 'string' },
      connections: { type: 'string' },
      processes: { type: 'string' },
      'sample-seconds': { type: 'string' },
      'folio-env': { type: 'string', multiple: true, default: [] },
      record: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      entry: { type: 'string', default: 'dist/src/cli.js' },
    },
  });
  const start = captureStart();
  const result = await runMemorySoak({
    dir: path.resolve(values.dir),
    seconds: Math.round(positive('minutes', values.minutes, 30) * 60),
    rate: positive('rate', values.rate, 200),
    connections: positive('connections', values.connections, 40),
    processes: positive('processes', values.processes, 1),
    sampleSeconds: positive('sample-seconds', values['sample-seconds'], 5),
    folioEnv: Object.fromEntries(
      values['folio-env'].map((pair) => {
        const match = /^(FOLIO_[A-Z0-9_]+)=(.*)$/.exec(pair);
        if (!match) throw new Error(`--folio-env must be FOLIO_NAME=VALUE, instead was "${pair}"`);
        return [match[1], match[2]];
      }),
    ),
    build: !values['no-build'],
    entry: values.entry,
    log: (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
  });
  process.stdout.write(`\nmemory on ${result.store}\n\n${markdownTable(result)}\n\n${summaryLine(result)}\n${verdict(result)}\n`);
  if (values.record) {
    const url = redactedDatabaseUrl();
    const command = `${url ? `DATABASE_URL=${url} ` : ''}node --import tsx bench/memory/main.ts ${process.argv.slice(2).join(' ')}`.trim();
    await appendRecord(recordSection(result, { ...start, command }));
    process.stderr.write('recorded in docs/benchmarks.md\n');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('bench', 'memory', 'main.ts'))) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * Benchmark runner: `npm run bench -- [suite] [--record] [--rounds N] …` (docs/benchmarks.md).
 * Dispatches to one suite, prints its table, and with --record appends a dated section to
 * docs/benchmarks.md. Exits 1 when any response was not 2xx, since such figures measure errors.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_SUITE, SUITES } from './suites.js';
import { redactedDatabaseUrl } from './lib/folio.js';
import { appendRecord, BENCHMARKS_DOC, captureStart, describeMachine, markdownTable, recordSection } from './lib/report.js';
import type { BenchOptions } from './lib/options.js';

const USAGE = `usage: npm run bench -- [suite] [options]

suites: ${Object.keys(SUITES).join(', ')} (default ${DEFAULT_SUITE})

options:
  --record            append the results to docs/benchmarks.md
  --rounds N          alternating rounds per target (default 3)
  --duration S        measured seconds per run (default 10)
  --warmup S          warm-up seconds before each measured run (default 3)
  --connections N     concurrent connections (default 50)
  --pipelining N      requests in flight per connection (default 1)
  --no-build          skip \`npm run build\` and measure the dist/ already there
  --profile           start Folio with --cpu-prof (profiles in .bench/profiles)
  --entry PATH        Folio CLI script to start (default dist/src/cli.js), e.g. a patched build to compare
  --folio-env N=V     start Folio with this FOLIO_* setting too (repeatable), e.g. FOLIO_CALLER_CACHE_MS=0

DATABASE_URL=postgres://… measures Folio on PostgreSQL; unset, on SQLite.`;

function positiveInteger(name: string, raw: string | undefined, fallback: number, allowZero = false): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1))
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, instead was "${raw}"`);
  return value;
}

/** `--folio-env NAME=VALUE` settings: FOLIO_* only, since the server's own environment is otherwise cleaned (bench/lib/folio.ts). */
function folioEnv(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const match = /^(FOLIO_[A-Z0-9_]+)=(.*)$/.exec(pair);
    if (!match) throw new Error(`--folio-env must be FOLIO_NAME=VALUE, instead was "${pair}"`);
    env[match[1]] = match[2];
  }
  return env;
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      record: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      entry: { type: 'string', default: 'dist/src/cli.js' },
      'folio-env': { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 1) throw new Error(`one suite at a time, instead got ${positionals.join(', ')}\n\n${USAGE}`);
  const name = positionals[0] ?? DEFAULT_SUITE;
  const load = SUITES[name];
  if (!load) throw new Error(`unknown suite "${name}"\n\n${USAGE}`);

  const options: BenchOptions = {
    rounds: positiveInteger('rounds', values.rounds, 3),
    duration: positiveInteger('duration', values.duration, 10),
    warmup: positiveInteger('warmup', values.warmup, 3, true),
    connections: positiveInteger('connections', values.connections, 50),
    pipelining: positiveInteger('pipelining', values.pipelining, 1),
    build: !values['no-build'],
    profile: values.profile,
    folioEntry: values.entry,
    folioEnv: folioEnv(values['folio-env']),
  };
  const suite = await load();
  const start = captureStart();
  process.stderr.write(`${suite.name}: ${suite.description}\n${describeMachine()}\n`);
  const report = await suite.run(options);

  process.stdout.write(`\n${suite.name} on ${report.store}\n\n${markdownTable(report)}\n\n${report.details ? `${report.details}\n\n` : ''}${report.verdict}\n`);
  if (report.comparison.failures.length > 0) {
    process.stderr.write(`\nnot recorded: some responses were not 2xx:\n${report.comparison.failures.map((f) => `  ${f}\n`).join('')}`);
    return 1;
  }
  if (values.record) {
    const databaseUrl = redactedDatabaseUrl();
    const args = process.argv.slice(2).join(' ');
    const command = `${databaseUrl ? `DATABASE_URL=${databaseUrl} ` : ''}npm run bench${args ? ` -- ${args}` : ''}`;
    await appendRecord(recordSection(report, { suite: suite.name, command, ...start }));
    process.stderr.write(`recorded in ${BENCHMARKS_DOC}\n`);
  }
  return 0;
}

// Ctrl-C: exit through process.exit so the suites' exit handlers stop servers and remove temp dirs.
process.once('SIGINT', () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

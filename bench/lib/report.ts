import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import { REPO_ROOT } from './processes.js';
import type { SuiteReport } from './suite.js';

export const BENCHMARKS_DOC = path.join(REPO_ROOT, 'docs', 'benchmarks.md');

export function describeMachine(): string {
  const cpus = os.cpus();
  const memory = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${memory} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ');
}

const ms = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

export function markdownTable(report: SuiteReport): string {
  const lines = ['| target | req/s (median) | req/s per round | p99 ms (median) | p99 ms per round | p50 ms (median) |', '|---|--:|---|--:|---|--:|'];
  for (const t of report.comparison.targets) {
    lines.push(
      `| ${t.name} | ${Math.round(t.medianRequestsPerSecond)} | ${t.runs.map((r) => Math.round(r.requestsPerSecond)).join(', ')} | ${ms(t.medianP99)} | ${t.runs
        .map((r) => ms(r.p99))
        .join(', ')} | ${ms(t.medianP50)} |`,
    );
  }
  return lines.join('\n');
}

export interface RecordContext {
  suite: string;
  command: string;
  startedAt: Date;
  loadBefore: string;
}

export function captureStart(): { startedAt: Date; loadBefore: string } {
  return { startedAt: new Date(), loadBefore: loadAverage() };
}

/** The dated section appended to docs/benchmarks.md by --record. */
export function recordSection(report: SuiteReport, context: RecordContext): string {
  const o = report.comparison.options;
  return [
    `### ${context.suite}, ${report.store}, ${context.startedAt.toISOString()}`,
    '',
    `- Machine: ${describeMachine()}`,
    `- Store: ${report.store}`,
    `- Load average (1/5/15 min) before / after: ${context.loadBefore} → ${loadAverage()}`,
    `- Settings: ${o.connections} connections, pipelining ${o.pipelining}, ${o.rounds} alternating rounds of ${o.warmup} s warm-up + ${o.duration} s measured per target`,
    ...report.notes.map((n) => `- ${n}`),
    `- Command: \`${context.command}\``,
    '',
    markdownTable(report),
    '',
    ...(report.details ? [report.details, ''] : []),
    `**${report.verdict}**`,
    '',
  ].join('\n');
}

/** Appends a section, formatted: the doc is under `prettier --check` (npm run lint), tables included. */
export async function appendRecord(section: string): Promise<void> {
  const existing = fs.existsSync(BENCHMARKS_DOC) ? fs.readFileSync(BENCHMARKS_DOC, 'utf8') : '# Benchmarks\n';
  const text = `${existing.replace(/\n*$/, '\n\n')}${section}`;
  const config = (await prettier.resolveConfig(BENCHMARKS_DOC)) ?? {};
  fs.writeFileSync(BENCHMARKS_DOC, await prettier.format(text, { ...config, filepath: BENCHMARKS_DOC }));
}

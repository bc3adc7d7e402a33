/**
 * One error registry (STYLE.md): src/errors/registry.ts, the spec's "Status and codes" table and
 * docs/errors.md must list the same codes with the same statuses, each way round.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';
import { ApiError, ERROR_REGISTRY, type ErrorCode } from '../../src/errors/registry.js';

const REPO_ROOT = PACKAGE_ROOT;
// The project keeps its own copy of the contract, so a fresh clone needs nothing beside it.
const SPEC = path.join(REPO_ROOT, 'docs', 'spec', 'content-api.md');
const DOCS = path.join(REPO_ROOT, 'docs', 'errors.md');

/** The lines of a markdown section, from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  assert.ok(start >= 0, `section "${heading}" not found`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((line, i) => i > start && /^#+ /.test(line) && line.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** Rows of the first table in `lines` whose header's first cell is `firstHeader`, as trimmed cells. */
function table(lines: string[], firstHeader: string): string[][] {
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
  const start = lines.findIndex((line) => line.trim().startsWith('|') && cells(line)[0] === firstHeader);
  assert.ok(start >= 0, `table starting with "${firstHeader}" not found`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows;
}

/** A "| Status | Codes |" table as code → status. */
function statusTable(lines: string[]): Map<string, number> {
  const codes = new Map<string, number>();
  for (const [status, list] of table(lines, 'Status')) {
    for (const code of list.split(',').map((c) => c.trim().replace(/`/g, ''))) {
      assert.ok(!codes.has(code), `${code} listed twice`);
      codes.set(code, Number(status));
    }
  }
  return codes;
}

const docs = fs.readFileSync(DOCS, 'utf8');
const docsCopyOfSpec = statusTable(section(docs, "## The spec's status table"));
const spec = statusTable(section(fs.readFileSync(SPEC, 'utf8'), '## Errors'));
const registry = new Map(Object.entries(ERROR_REGISTRY).map(([code, entry]) => [code, entry.status]));
const documented = new Map(
  table(section(docs, '## Codes'), 'Code').map(([code, status, when, message]) => [code.replace(/`/g, ''), { status: Number(status), when, message }]),
);

describe('error registry', () => {
  test('the spec’s table was read', () => {
    assert.ok(spec.size >= 20, `parsed ${spec.size} codes from the spec`);
    assert.deepEqual([...docsCopyOfSpec].sort(), [...spec].sort(), 'the copy in docs/errors.md is the spec’s table');
  });

  test('every code of the spec is in the registry with the same status', () => {
    for (const [code, status] of spec) assert.equal(registry.get(code), status, `${code} (${status} in the spec)`);
  });

  test('every code of the registry is in the spec with the same status', () => {
    for (const [code, status] of registry) assert.equal(spec.get(code), status, `${code} (${status} in the registry)`);
  });

  test('docs/errors.md lists exactly the registry’s codes, statuses and default messages', () => {
    for (const [code, status] of registry) {
      const doc = documented.get(code);
      assert.ok(doc, `${code} is missing from docs/errors.md`);
      assert.equal(doc.status, status, `${code}: status`);
      assert.equal(doc.message, ERROR_REGISTRY[code as ErrorCode].message, `${code}: default message`);
      assert.ok(doc.when.length > 0, `${code}: says when Folio returns it`);
    }
    for (const [code, doc] of documented) assert.equal(registry.get(code), doc.status, `${code} in docs/errors.md is not in the registry`);
    assert.equal(documented.size, registry.size);
  });

  test('an ApiError takes its status and default message from the registry', () => {
    for (const code of Object.keys(ERROR_REGISTRY) as ErrorCode[]) {
      const error = new ApiError(code);
      assert.equal(error.status, ERROR_REGISTRY[code].status);
      assert.equal(error.message, ERROR_REGISTRY[code].message);
      assert.ok(error.status >= 400 && error.status <= 599);
    }
    assert.equal(new ApiError('validation_error', 'custom').message, 'custom');
  });
});

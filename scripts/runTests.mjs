// `npm test`: runs the test files compiled (the pretest builds src/, test/ and scripts/ into
// .test-dist/ with tsconfig.test.json), one file at a time. Loading a test file's ~600 modules through
// tsx's loader hooks cost ~4 s of CPU per file on the CI machine, over 130 files a suite.
// Arguments name test files or directories under test/ to run only those (`npm test -- test/query`);
// none runs them all. A file is listed from test/, so a test deleted there never runs from a stale build.
// Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from './buildLock.mjs';

const BUILD = '.test-dist';

function testFiles(name) {
  const full = path.resolve(root, name);
  if (fs.statSync(full).isDirectory()) return fs.readdirSync(full).flatMap((child) => testFiles(path.join(full, child)));
  return full.endsWith('.test.ts') ? [full] : [];
}

const named = process.argv.slice(2);
const sources = (named.length > 0 ? named : ['test']).flatMap(testFiles).sort();
if (sources.length === 0) {
  process.stderr.write(`no test files under ${named.join(', ')}\n`);
  process.exit(1);
}
const compiled = sources.map((file) => path.join(root, BUILD, path.relative(root, file)).replace(/\.ts$/, '.js'));
const run = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-concurrency=1', ...compiled], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);

// The server's build (tsc into dist/), made only when a source is newer than the build: `npm start`
// runs it before becoming the server. The tests that start `folio` as an operator does (a child
// process, `folio admin …`) run the compiled CLI too, built by this script into a directory of their
// own (`node scripts/buildServer.mjs --out .test-dist`), so a test that forces dist/ stale never
// races them. `npm test` builds the tests there too (`--project tsconfig.test.json`: src/, test/ and
// scripts/), and runs them compiled: loading a test file's modules through tsx cost ~3.6 s more
// CPU per file (131 files a suite). Every build happens under the build lock (buildLock.mjs), and
// is written to a temporary directory that is renamed into place, so nothing ever runs a
// half-written build.
// Plain JavaScript: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { newestInput, root, withBuildLock } from './buildLock.mjs';

/** What a build of `project` reads: the directories it includes and the build's own configuration. */
function inputsOf(project) {
  const { include = ['src'] } = JSON.parse(fs.readFileSync(path.join(root, project), 'utf8'));
  return [...new Set([...include, project, 'tsconfig.json', 'package.json', 'package-lock.json'])];
}

/** The compiled CLI, `folio`, of the build in `out` (relative to the root). */
export function entryOf(out = 'dist') {
  return path.join(root, out, 'src', 'cli.js');
}

/** Written last by a build: its time is the build's. */
const stampOf = (dir) => path.join(dir, '.build-complete');

function isCurrent(dir, project) {
  try {
    return fs.statSync(stampOf(dir)).mtimeMs >= newestInput(inputsOf(project));
  } catch {
    return false;
  }
}

function build(dir, project) {
  const started = Date.now();
  process.stderr.write(`folio: building (sources are newer than ${path.relative(root, dir)}/) …\n`);
  const staging = path.join(root, `.dist-build-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  // Starting from the previous build keeps tsc's incremental state (its paths are relative, and
  // the staging directory sits beside the build).
  if (fs.existsSync(dir)) fs.cpSync(dir, staging, { recursive: true });
  fs.rmSync(stampOf(staging), { force: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', project, '--outDir', staging, '--tsBuildInfoFile', path.join(staging, '.tsbuildinfo')], {
      cwd: root,
      stdio: 'inherit',
    });
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
    throw new Error('folio: the build failed (see above)');
  }
  fs.writeFileSync(stampOf(staging), '');
  const old = path.join(root, `.dist-old-${process.pid}`);
  if (fs.existsSync(dir)) fs.renameSync(dir, old);
  fs.renameSync(staging, dir);
  fs.rmSync(old, { recursive: true, force: true });
  process.stderr.write(`folio: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * Builds the server (and, with tsconfig.test.json, the tests) into `out` unless it is newer than
 * every input; the caller holds the build lock.
 */
export function buildServerIfStale(out = 'dist', project = 'tsconfig.json') {
  const dir = path.join(root, out);
  if (!isCurrent(dir, project)) build(dir, project);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'dist' }, project: { type: 'string', default: 'tsconfig.json' } } });
  try {
    await withBuildLock(() => buildServerIfStale(values.out, values.project));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

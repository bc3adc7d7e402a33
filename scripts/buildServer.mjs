// The server's build (tsc into dist/), made only when a source is newer than the build: `npm start`
// runs it before becoming the server. The tests that start `folio` as an operator does (a child
// process, `folio admin …`) run the compiled CLI too, built by this script into a directory of their
// own (`node scripts/buildServer.mjs --out .test-dist`), so a test that forces dist/ stale never
// races them. Every build happens under the build lock (buildLock.mjs), and is written to a
// temporary directory that is renamed into place, so nothing ever runs a half-written build.
// Plain JavaScript: it runs before anything is compiled.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { newestInput, root, withBuildLock } from './buildLock.mjs';

/** What the build reads: every file under src/ and the build's own configuration. */
const INPUTS = ['src', 'tsconfig.json', 'package.json', 'package-lock.json'];

/** The compiled CLI, `folio`, of the build in `out` (relative to the root). */
export function entryOf(out = 'dist') {
  return path.join(root, out, 'src', 'cli.js');
}

/** Written last by a build: its time is the build's. */
const stampOf = (dir) => path.join(dir, '.build-complete');

function isCurrent(dir) {
  try {
    return fs.statSync(stampOf(dir)).mtimeMs >= newestInput(INPUTS);
  } catch {
    return false;
  }
}

function build(dir) {
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
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', staging, '--tsBuildInfoFile', path.join(staging, '.tsbuildinfo')], {
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

/** Builds the server into `out` unless it is newer than every input; the caller holds the build lock. */
export function buildServerIfStale(out = 'dist') {
  const dir = path.join(root, out);
  if (!isCurrent(dir)) build(dir);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'dist' } } });
  try {
    await withBuildLock(() => buildServerIfStale(values.out));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

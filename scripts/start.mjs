// `npm start`: build only when a source is newer than the build (the server, then the console), then
// become the server.
//
// - Several starts may run at once (two instances on one checkout): the check and the build happen
//   under a lock directory, and the build is written to a temporary directory that is renamed into
//   place, so no start ever runs a half-written dist/.
// - The server runs in this very process (its CLI is imported, not spawned), and package.json
//   runs this script with `exec`, so a signal sent to the process `npm start` started reaches the
//   server and its graceful shutdown.
// Plain JavaScript: it must run before anything is compiled.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestInput, root, withBuildLock } from './buildLock.mjs';
import { buildConsole, consoleIsCurrent } from './buildConsole.mjs';

const dist = path.join(root, 'dist');
const entry = path.join(dist, 'src', 'cli.js');
/** Written last by a build: its time is the build's. */
const stamp = path.join(dist, '.build-complete');
/** What the build reads: every file under src/ and the build's own configuration. */
const INPUTS = ['src', 'tsconfig.json', 'package.json', 'package-lock.json'];

function buildIsCurrent() {
  try {
    return fs.statSync(stamp).mtimeMs >= newestInput(INPUTS);
  } catch {
    return false;
  }
}

function build() {
  const started = Date.now();
  process.stderr.write('folio: building (sources are newer than dist/) …\n');
  const staging = path.join(root, `.dist-build-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  // Starting from the previous build keeps tsc's incremental state (its paths are relative, and
  // the staging directory sits beside dist/).
  if (fs.existsSync(dist)) fs.cpSync(dist, staging, { recursive: true });
  fs.rmSync(path.join(staging, '.build-complete'), { force: true });
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', staging, '--tsBuildInfoFile', path.join(staging, '.tsbuildinfo')], {
      cwd: root,
      stdio: 'inherit',
    });
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
    process.stderr.write('folio: the build failed (see above)\n');
    process.exit(1);
  }
  fs.writeFileSync(path.join(staging, '.build-complete'), '');
  const old = path.join(root, `.dist-old-${process.pid}`);
  if (fs.existsSync(dist)) fs.renameSync(dist, old);
  fs.renameSync(staging, dist);
  fs.rmSync(old, { recursive: true, force: true });
  process.stderr.write(`folio: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

await withBuildLock(async () => {
  if (!buildIsCurrent()) build();
  // After the server's build, which replaces dist/ (carrying dist/console/ over).
  if (!consoleIsCurrent()) await buildConsole();
});

// Become `folio serve …`: the CLI reads its arguments from process.argv.
process.argv = [process.argv[0], entry, 'serve', ...process.argv.slice(2)];
await import(pathToFileURL(entry).href);

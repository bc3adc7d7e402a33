// The web console's build (issue 28): Vite bundles console/ into dist/console/, which the server
// serves at /console (src/http/consolePlane.ts). Built only when a source is newer than the last
// build, under the shared build lock, into a staging directory renamed into place, so a server
// never serves half a build. `npm start` calls it (start.mjs); the console's browser tests run this
// file (test/console/consoleBrowser.ts); `node scripts/buildConsole.mjs` builds by hand.
// Plain JavaScript: it runs before anything is compiled.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestInput, root, withBuildLock } from './buildLock.mjs';

export const consoleDist = path.join(root, 'dist', 'console');
/** Written last: its time is the build's. */
const stamp = path.join(consoleDist, '.build-complete');
/** The console's sources, its configuration, the admin-plane schemas it takes its types from, the installed packages, the example fixture it offers. */
const INPUTS = ['console', 'src/schemas', 'package-lock.json', 'examples'];

export function consoleIsCurrent() {
  try {
    return fs.statSync(stamp).mtimeMs >= newestInput(INPUTS);
  } catch {
    return false;
  }
}

/** Builds the console; call under the build lock. */
export async function buildConsole() {
  const started = Date.now();
  process.stderr.write('folio: building the console (its sources are newer than dist/console/) …\n');
  const staging = path.join(root, 'dist', `.console-build-${process.pid}`);
  fs.rmSync(staging, { recursive: true, force: true });
  let build;
  try {
    ({ build } = await import('vite'));
  } catch {
    // An install without devDependencies has no Vite: the server still starts, and /console says it is not built.
    process.stderr.write('folio: Vite is not installed (npm install without --omit=dev builds the console); /console is not served\n');
    return;
  }
  await build({ configFile: path.join(root, 'console', 'vite.config.ts'), logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
  fs.writeFileSync(path.join(staging, '.build-complete'), '');
  const old = path.join(root, 'dist', `.console-old-${process.pid}`);
  if (fs.existsSync(consoleDist)) fs.renameSync(consoleDist, old);
  fs.renameSync(staging, consoleDist);
  fs.rmSync(old, { recursive: true, force: true });
  process.stderr.write(`folio: console built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** Builds the console when its sources changed; takes the lock itself. */
export async function ensureConsoleBuilt() {
  if (consoleIsCurrent()) return;
  await withBuildLock(async () => {
    if (!consoleIsCurrent()) await buildConsole();
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureConsoleBuilt();
}

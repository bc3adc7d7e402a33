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
import { pathToFileURL } from 'node:url';
import { withBuildLock } from './buildLock.mjs';
import { buildConsole, consoleIsCurrent } from './buildConsole.mjs';
import { buildServerIfStale, entryOf } from './buildServer.mjs';

await withBuildLock(async () => {
  try {
    buildServerIfStale();
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  // After the server's build, which replaces dist/ (carrying dist/console/ over).
  if (!consoleIsCurrent()) await buildConsole();
});

const entry = entryOf();
// Become `folio serve …`: the CLI reads its arguments from process.argv.
process.argv = [process.argv[0], entry, 'serve', ...process.argv.slice(2)];
await import(pathToFileURL(entry).href);

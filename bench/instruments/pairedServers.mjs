// Two Folio servers in this one process, for bench/instruments/paired.ts: the first with the
// request log and metrics as configured, the second with both off. Arguments: the compiled
// Folio's directory (holding start.js and config.js), then a JSON array of two
// { port, dataDir, adminToken, env } objects, the servers' settings.
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [dir, serversJson] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.resolve(dir, file)).href);
const [{ startFolio }, { loadConfigWith }] = await Promise.all([load('start.js'), load('config.js')]);
const running = [];
for (const server of JSON.parse(serversJson)) {
  running.push(
    await startFolio(
      loadConfigWith({
        FOLIO_HOST: '127.0.0.1',
        FOLIO_PORT: String(server.port),
        FOLIO_DATA_DIR: server.dataDir,
        FOLIO_ADMIN_TOKEN: server.adminToken,
        ...server.env,
      }),
    ),
  );
}
process.once('SIGTERM', async () => {
  await Promise.all(running.map((r) => r.close()));
  process.exit(0);
});

#!/usr/bin/env node
import cluster from 'node:cluster';
import { Command } from 'commander';
import { loadConfigWith } from './config.js';
import { ApiError } from './errors/registry.js';
import { registerAdminCli } from './cli/registerAdminCli.js';
import { registerFixtureCli } from './cli/fixtureCli.js';
import { PACKAGE } from './packageInfo.js';
import type { Logger } from './logger.js';

/** SIGTERM or SIGINT closes what the command started, once, and ends the process (status 1 if closing failed). */
function closeOnSignal(log: Logger, messages: { closing: string; failed: string }, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, messages.closing);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, messages.failed);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

const program = new Command('folio').description('Folio: a self-hostable workspace Content API server').version(PACKAGE.version);

program
  .command('serve')
  .description('start the server (configuration from FOLIO_* environment variables)')
  .option('--host <host>', 'FOLIO_HOST')
  .option('--port <port>', 'FOLIO_PORT')
  .option('--data-dir <dir>', 'FOLIO_DATA_DIR')
  .option('--seed <file>', 'FOLIO_SEED: a fixture loaded into an empty store, and what a reset to `seed` returns to')
  .option('--processes <n>', 'FOLIO_PROCESSES: server processes sharing the port, or auto for one per core (default: 1)')
  .action(async (options: { host?: string; port?: string; dataDir?: string; seed?: string; processes?: string }) => {
    const config = loadConfigWith({
      FOLIO_HOST: options.host,
      FOLIO_PORT: options.port,
      FOLIO_DATA_DIR: options.dataDir,
      FOLIO_SEED: options.seed,
      FOLIO_PROCESSES: options.processes,
    });
    // The primary of several: it migrates, forks and watches (src/cli/serveProcesses.ts); each
    // process it forks runs this command again and takes the path below.
    if (config.processes > 1 && cluster.isPrimary) {
      const { serveProcesses } = await import('./cli/serveProcesses.js');
      const { done } = await serveProcesses(config);
      process.exit(await done);
    }
    const { startFolio } = await import('./start.js');
    const running = await startFolio(config);
    closeOnSignal(running.log, { closing: 'shutting down: finishing in-flight requests', failed: 'shutdown failed' }, () => running.close());
  });

program
  .command('worker')
  .description('run background jobs (meeting notes processing, external-URL imports) without serving HTTP, on the store FOLIO_* and DATABASE_URL name')
  .option('--concurrency <n>', 'meeting-notes jobs at once (FOLIO_WORKERS; at least 1 here); imports: FOLIO_IMPORT_WORKERS')
  .action(async (options: { concurrency?: string }) => {
    const config = loadConfigWith({ FOLIO_WORKERS: options.concurrency });
    const [{ createCore }, { startWorkers }, { JOB_KINDS }, { MEETING_NOTES_JOB }] = await Promise.all([
      import('./core.js'),
      import('./worker/startWorkers.js'),
      import('./jobs/index.js'),
      import('./domain/meetingNotes/meetingNotesJob.js'),
    ]);
    const core = await createCore(config);
    const worker = await startWorkers(core, JOB_KINDS, { [MEETING_NOTES_JOB]: Math.max(1, config.jobs.meetingNotesSlots) });
    closeOnSignal(core.log, { closing: 'worker shutting down: handing running jobs back', failed: 'worker shutdown failed' }, async () => {
      await worker?.stop();
      await core.close();
    });
  });

registerAdminCli(program);
registerFixtureCli(program);

program.parseAsync().catch((error: unknown) => {
  const message = error instanceof ApiError ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
  process.stderr.write(`folio: ${message}\n`);
  process.exit(1);
});

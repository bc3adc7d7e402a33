import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config.js';
import { createCore } from '../core.js';
import { resolveAdminToken } from '../adminToken.js';
import { createLogger } from '../logger.js';
import { isJobsEnqueued, JOBS_ENQUEUED } from '../jobs/processWakeChannel.js';
import { loadSeed } from './fixtureCli.js';

/** A process that dies is started again after this, doubling while they keep dying, up to the maximum. */
const REFORK_MIN_MS = 250;
const REFORK_MAX_MS = 30_000;
/** A process that ran this long before dying resets the doubling: it was not a crash loop. */
const STABLE_MS = 60_000;

export interface ServeProcesses {
  /** Resolves with the exit status once every process has ended after a signal (or a failed start). */
  done: Promise<number>;
}

/**
 * `folio serve` with FOLIO_PROCESSES > 1, in the primary: it does what must happen once — the
 * admin token, migrations, the seed's import — then forks the server processes, which each run
 * `folio serve` (src/cli.ts) and share the port through the cluster. It serves nothing itself; it
 * passes job wake-ups between them (src/jobs/processWakeChannel.ts), starts again one that dies,
 * and on SIGTERM or SIGINT passes SIGTERM on and waits for each to finish its graceful shutdown.
 */
export async function serveProcesses(config: Config): Promise<ServeProcesses> {
  const log = createLogger(config.logLevel);
  const { token, created, file } = resolveAdminToken(config.adminToken, config.dataDir);
  if (created) process.stdout.write(`Folio admin token (stored in ${file}): ${token}\n`);
  else if (file) process.stdout.write(`Folio admin token: in ${file}\n`);
  // Migrations and the seed's import, here alone: the processes then find nothing left to do.
  const core = await createCore(config);
  try {
    if (config.seedFile) await loadSeed(core, config.seedFile);
  } finally {
    await core.close();
  }

  // The token resolved here, so no process generates or prints its own.
  const env = { FOLIO_ADMIN_TOKEN: token };
  const workers = new Set<Worker>();
  const startedAt = new Map<Worker, number>();
  let stopping = false;
  let listening = 0;
  let everListening = false;
  let delay = REFORK_MIN_MS;
  let finish!: (status: number) => void;
  const done = new Promise<number>((resolve) => (finish = resolve));
  let status = 0;

  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, processes: workers.size }, 'shutting down: each process finishes its in-flight requests');
    for (const worker of workers) worker.process.kill('SIGTERM');
    if (workers.size === 0) finish(status);
  };

  const fork = () => {
    const worker = cluster.fork(env);
    workers.add(worker);
    startedAt.set(worker, Date.now());
    worker.on('message', (message: unknown) => {
      if (!isJobsEnqueued(message)) return;
      for (const other of workers) if (other !== worker && other.isConnected()) other.send({ folio: JOBS_ENQUEUED });
    });
    worker.once('listening', (address) => {
      listening += 1;
      if (everListening) return;
      if (listening < config.processes) return;
      everListening = true;
      const host = address.addressType === 6 ? `[${address.address}]` : address.address;
      const url = `http://${host}:${address.port}`;
      log.info({ url, processes: config.processes }, `folio listening on ${url} in ${config.processes} processes`);
      if (log.isLevelEnabled('info')) process.stdout.write(`Folio console: ${url}/console\n`);
    });
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      const ran = Date.now() - (startedAt.get(worker) ?? Date.now());
      startedAt.delete(worker);
      if (stopping) {
        // Killed by the SIGTERM passed on before its handler was in place: stopped, not failed.
        if (code !== 0 && signal !== 'SIGTERM') status = 1;
        if (workers.size === 0) finish(status);
        return;
      }
      // A process that never served (a bad configuration, the port taken): the others would fail
      // alike, so the start fails as a single process's would.
      if (!everListening) {
        log.error({ pid: worker.process.pid, code, signal }, 'a server process failed to start: stopping');
        stopAll('SIGTERM');
        status = 1;
        return;
      }
      if (ran >= STABLE_MS) delay = REFORK_MIN_MS;
      log.warn({ pid: worker.process.pid, code, signal, restart_in_ms: delay }, 'a server process ended unexpectedly: starting another');
      const wait = delay;
      delay = Math.min(delay * 2, REFORK_MAX_MS);
      setTimeout(() => {
        if (!stopping) fork();
      }, wait);
    });
  };

  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));
  for (let i = 0; i < config.processes; i += 1) fork();
  return { done };
}

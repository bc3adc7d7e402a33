import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { createCore, type Core } from './core.js';
import { buildServer } from './server.js';
import type { App } from './http/app.js';
import { resolveAdminToken } from './adminToken.js';
import { hashToken } from './auth/tokens.js';
import type { Logger } from './logger.js';
import { sweepFileUploads } from './commands/fileUploads/sweepFileUploads.js';
import { startWorkers } from './worker/startWorkers.js';
import { JOB_KINDS } from './jobs/index.js';
import { loadSeed } from './cli/fixtureCli.js';

export interface Running {
  app: App;
  url: string;
  adminToken: string;
  log: Logger;
  close(): Promise<void>;
  /** The core the server runs on: in-process callers (tests, the CLI) reach its store through it. */
  core: Core;
}

const SWEEP_INTERVAL_MS = 60_000;

/** Builds the core (opening the store, running migrations), the server on it, and listens. */
export async function startFolio(config: Config): Promise<Running> {
  const { token: adminToken, created, file: adminTokenFile } = resolveAdminToken(config.adminToken, config.dataDir);
  // Before the store opens: a start that then fails (store unreachable) must not lose the token
  // it generated. Printed once; later starts say where it is kept.
  if (created) process.stdout.write(`Folio admin token (stored in ${adminTokenFile}): ${adminToken}\n`);
  else if (adminTokenFile) process.stdout.write(`Folio admin token: in ${adminTokenFile}\n`);
  const core = await createCore(config);
  if (config.seedFile)
    await loadSeed(core, config.seedFile).catch(async (error: unknown) => {
      await core.close();
      throw error;
    });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null;
  // An unreachable Redis only stops the sharing: rate limits fall back to this process's memory
  // (src/http/rateLimit.ts). Said once per outage, since ioredis reports every reconnect attempt.
  let redisDown = false;
  redis?.on('error', (error: Error) => {
    if (redisDown) return;
    redisDown = true;
    core.log.warn({ err: error }, 'Redis unreachable: rate limits are counted per process until it is back');
  });
  redis?.on('ready', () => {
    if (!redisDown) return;
    redisDown = false;
    core.log.info('Redis reachable again: rate limits are shared across instances');
  });
  const app = await buildServer(core, { adminTokenHash: hashToken(adminToken), redis });
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  // Every instance sweeps; the steps are idempotent (src/commands/fileUploads/sweepFileUploads.ts).
  const sweeper = setInterval(() => {
    sweepFileUploads(core).catch((error: unknown) => core.log.error({ err: error }, 'file upload sweep failed'));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  app.addHook('preClose', async () => clearInterval(sweeper));
  const worker = await startWorkers(core, JOB_KINDS);
  // Before the store closes (onClose): running jobs are handed back while their writes can still land.
  if (worker) app.addHook('preClose', () => worker.stop());
  const url = await app.listen({ host: config.host, port: config.port });
  const { log } = core;
  // The rate limit is on by default, as on the service: said where a new user looks first, since a
  // script that outruns it only seems to stall (the SDK retries silently).
  const limit = config.rateLimit
    ? `rate limit ${config.rateLimit} requests/s per connection (bursts of ${Math.round(config.rateLimit * config.rateLimitWindow)}); FOLIO_RATE_LIMIT=off turns it off`
    : 'rate limit off';
  log.info(
    { url, store: core.store.dialect.name, rate_limit: config.rateLimit ?? 'off', shared_rate_limit: Boolean(redis) },
    `folio listening on ${url}; console at ${url}/console; ${limit}`,
  );
  // The console's link, where a new user looks after `npm start` (on stdout, as the admin token is);
  // said once by the primary when several processes serve (src/cli/serveProcesses.ts).
  if (log.isLevelEnabled('info') && cluster.isPrimary) process.stdout.write(`Folio console: ${url}/console\n`);
  return { app, url, adminToken, log, close: () => app.close(), core };
}

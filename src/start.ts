import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { createStore } from './storage/createStore.js';
import { buildServer, type App } from './server.js';
import { resolveAdminToken } from './adminToken.js';
import { hashToken } from './auth/tokens.js';
import { createLogger, type Logger } from './http/requestLog.js';

export interface Running {
  app: App;
  url: string;
  adminToken: string;
  log: Logger;
  close(): Promise<void>;
}

export const DEFAULT_MAX_FILE_UPLOAD_BYTES = 5 * 1024 * 1024 * 1024;

/** Opens the store (running migrations), builds the server and listens. */
export async function startFolio(config: Config): Promise<Running> {
  const { token: adminToken, created, file: adminTokenFile } = resolveAdminToken(config.adminToken, config.dataDir);
  // Before the store opens: a start that then fails (store unreachable) must not lose the token
  // it generated. Printed once; later starts say where it is kept.
  if (created) process.stdout.write(`Folio admin token (stored in ${adminTokenFile}): ${adminToken}\n`);
  else if (adminTokenFile) process.stdout.write(`Folio admin token: in ${adminTokenFile}\n`);
  const store = await createStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false }) : null;
  redis?.on('error', () => {
    // Logged by the rate limiter's skipOnError path; an unreachable Redis only disables sharing.
  });
  const ctx: AppContext = {
    config,
    store,
    maxFileUploadBytes: Number(process.env.FOLIO_MAX_FILE_UPLOAD_BYTES || DEFAULT_MAX_FILE_UPLOAD_BYTES),
  };
  const log = createLogger(config.logLevel);
  const app = await buildServer(ctx, { adminTokenHash: hashToken(adminToken), redis, log });
  if (redis) app.addHook('onClose', async () => void redis.disconnect());
  const url = await app.listen({ host: config.host, port: config.port });
  log.info({ url, store: store.dialect, rate_limit: config.rateLimit ?? 'off', shared_rate_limit: Boolean(redis) }, 'folio listening');
  return { app, url, adminToken, log, close: () => app.close() };
}

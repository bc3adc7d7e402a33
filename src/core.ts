import type { AppContext } from './context.js';
import type { Config } from './config.js';
import { systemClock } from './clock.js';
import { createLogger } from './logger.js';
import { newId } from './http/ids.js';
import { createStore } from './storage/createStore.js';
import { backfillValueColumns } from './domain/properties/backfillValueColumns.js';

/**
 * The application without a transport: what the HTTP server, the CLI and a worker process
 * (issue 14) all run commands on. Nothing here may import Fastify (test/platform/core.test.ts).
 */
export interface Core extends AppContext {
  /** Closes the store; the core is unusable afterwards. */
  close(): Promise<void>;
}

/** Opens the store (running its migrations) and assembles the context commands run on. */
export async function createCore(config: Config): Promise<Core> {
  const store = await createStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Values written under older column rules get the current ones before any query reads them.
  await backfillValueColumns(store);
  return {
    config,
    store,
    clock: systemClock,
    newId,
    log: createLogger(config.logLevel),
    close: () => store.close(),
  };
}

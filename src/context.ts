import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Store } from './storage/createStore.js';
import type { FileStore } from './storage/files/fileStore.js';
import type { HostedFileLinks } from './domain/files/hostedFiles.js';

/** What commands need, from the server or any other process (src/core.ts builds it); passed explicitly, never global. */
export interface AppContext {
  config: Config;
  store: Store;
  /** Where uploaded bytes live (src/storage/files/). */
  files: FileStore;
  /** Signs and checks the links hosted files are read through. */
  fileLinks: HostedFileLinks;
  clock: Clock;
  newId(): string;
  log: Logger;
}

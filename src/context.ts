import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Store } from './storage/createStore.js';

/** What commands need, from the server or any other process (src/core.ts builds it); passed explicitly, never global. */
export interface AppContext {
  config: Config;
  store: Store;
  clock: Clock;
  newId(): string;
  log: Logger;
}

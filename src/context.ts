import type { Config } from './config.js';
import type { Store } from './storage/createStore.js';

/** What commands need from the running server; passed explicitly, never global. */
export interface AppContext {
  config: Config;
  store: Store;
  /** Per-file limit reported on bot users (spec, "Bot info"). */
  maxFileUploadBytes: number;
}

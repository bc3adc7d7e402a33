/**
 * A second connection to a test server's store (the SQLite file in its data dir in WAL mode, or
 * the same PostgreSQL database), for tests that write or read below the API.
 */
import { after, before } from 'node:test';
import { createStore, type Store } from '../../src/storage/createStore.js';
import type { TestServer } from './server.js';
import { lateBound } from './lateBound.js';

export async function openStore(server: TestServer): Promise<Store> {
  return createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir: server.dataDir });
}

/** `openStore` for the enclosing `describe`, opened after the server's hooks and closed after it. */
export function useStore(server: TestServer): Store {
  let store: Store | undefined;
  before(async () => {
    store = await openStore(server);
  });
  after(() => store?.close());
  return lateBound(() => store, 'store');
}

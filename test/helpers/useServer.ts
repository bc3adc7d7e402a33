/**
 * The setup most test files share: one real server (on the store DATABASE_URL picks, see
 * server.ts) and one fresh workspace for the enclosing `describe` (or file), closed after it.
 * Registers its own node:test hooks; hooks the caller registers afterwards run after these, so
 * they can seed data through `server` and `fx`.
 */
import { after, before } from 'node:test';
import { startTestServer, type TestServer } from './server.js';
import { makeWorkspace, type Fixture } from './factories.js';
import { lateBound } from './lateBound.js';
import { ownDatabase, type OwnDatabase } from './ownDatabase.js';

export interface ServerOptions {
  /** Extra environment for the server (limits, log level, search thresholds). */
  env?: Record<string, string>;
  workspace?: Parameters<typeof makeWorkspace>[1];
  /** On PostgreSQL, a database of its own (test/helpers/ownDatabase.ts): for tests acting on the whole store. */
  ownDatabase?: boolean;
}

export function useServer(options: ServerOptions = {}): { server: TestServer; fx: Fixture } {
  let server: TestServer | undefined;
  let fx: Fixture | undefined;
  let database: OwnDatabase | null = null;
  before(async () => {
    if (options.ownDatabase) database = await ownDatabase();
    server = await startTestServer({ ...options.env, ...(database ? { DATABASE_URL: database.url } : {}) });
    fx = await makeWorkspace(server, options.workspace);
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });
  return { server: lateBound(() => server, 'server'), fx: lateBound(() => fx, 'fx') };
}

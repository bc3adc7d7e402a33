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

export interface ServerOptions {
  /** Extra environment for the server (limits, log level, search thresholds). */
  env?: Record<string, string>;
  workspace?: Parameters<typeof makeWorkspace>[1];
}

export function useServer(options: ServerOptions = {}): { server: TestServer; fx: Fixture } {
  let server: TestServer | undefined;
  let fx: Fixture | undefined;
  before(async () => {
    server = await startTestServer(options.env);
    fx = await makeWorkspace(server, options.workspace);
  });
  after(() => server?.close());
  return { server: lateBound(() => server, 'server'), fx: lateBound(() => fx, 'fx') };
}

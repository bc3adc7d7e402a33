import assert from 'node:assert/strict';
import type { TestServer } from './server.js';
import { call } from './http.js';

type Json = Record<string, any>;

export async function admin(server: TestServer, method: string, path: string, body?: unknown): Promise<Json> {
  const result = await call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });
  assert.equal(result.status, 200, `admin ${method} ${path}: ${JSON.stringify(result.body)}`);
  return result.body;
}

export interface Fixture {
  workspaceId: string;
  user: Json;
  connection: Json;
  token: string;
}

/** A workspace with one person and one connection acting for them. */
export async function makeWorkspace(
  server: TestServer,
  options: { kind?: 'internal' | 'public' | 'personal'; capabilities?: string[]; name?: string } = {},
): Promise<Fixture> {
  const workspace = await admin(server, 'POST', '/workspaces', { name: options.name ?? 'Test workspace' });
  const user = await admin(server, 'POST', `/workspaces/${workspace.id}/users`, {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    meeting_notes_enabled: true,
  });
  const kind = options.kind ?? 'personal';
  const connection = await admin(server, 'POST', `/workspaces/${workspace.id}/connections`, {
    name: 'Test integration',
    kind,
    capabilities: options.capabilities ?? ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments', 'user_info_with_email'],
    ...(kind === 'internal' ? {} : { user_id: user.id }),
  });
  return { workspaceId: workspace.id, user, connection, token: connection.token };
}

export async function addConnection(
  server: TestServer,
  workspaceId: string,
  capabilities: string[],
  kind: 'internal' | 'public' | 'personal' = 'internal',
  userId?: string,
): Promise<Json> {
  return admin(server, 'POST', `/workspaces/${workspaceId}/connections`, {
    name: 'Another integration',
    kind,
    capabilities,
    ...(userId ? { user_id: userId } : {}),
  });
}

export async function makeSharedPage(server: TestServer, fixture: Fixture, title = 'Shared page'): Promise<Json> {
  const page = await admin(server, 'POST', `/workspaces/${fixture.workspaceId}/pages`, { title });
  await admin(server, 'POST', `/connections/${fixture.connection.id}/grants`, { object_id: page.id });
  return page;
}

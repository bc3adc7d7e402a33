/**
 * A Folio server built in-process, for tests that must add a route of their own before the server
 * is ready (a handler that throws, a v1 route with a capability) and drive it with `app.inject`.
 * Built as src/start.ts does: loadConfig → createCore → buildServer, on the store DATABASE_URL picks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createCore } from '../../src/core.js';
import { buildServer } from '../../src/server.js';
import type { App } from '../../src/http/app.js';
import { hashToken } from '../../src/auth/tokens.js';
import type { AppContext } from '../../src/context.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';

export const ADMIN_TOKEN = 'in-process-admin-token';

export async function buildInProcess(env: Record<string, string> = {}): Promise<{ app: App; ctx: AppContext }> {
  const config = loadConfig({
    FOLIO_RATE_LIMIT: 'off',
    FOLIO_LOG_LEVEL: 'silent',
    FOLIO_CHECK_RESPONSES: process.env.FOLIO_CHECK_RESPONSES ?? '1',
    PATH: process.env.PATH ?? '',
    FOLIO_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'folio-inproc-')),
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const core = await createCore(config);
  const app = await buildServer(core, { adminTokenHash: hashToken(ADMIN_TOKEN) });
  return { app, ctx: core };
}

/** `app.inject` with the conventions of test/helpers/http.ts: bearer token, newest version, JSON. */
export async function inject(
  app: App,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  url: string,
  options: { token?: string; version?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.version !== null) headers['notion-version'] = options.version ?? LATEST_VERSION;
  let payload: string | undefined;
  if (options.rawBody !== undefined) payload = options.rawBody;
  else if (options.body !== undefined) payload = JSON.stringify(options.body);
  if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const response = await app.inject({ method, url, headers, payload });
  return { status: response.statusCode, headers: response.headers, text: response.body, body: response.json() as Record<string, any> };
}

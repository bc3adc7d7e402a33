/**
 * Starts a real Folio server on a real store for a test file. The store follows DATABASE_URL:
 * unset → a fresh SQLite file in a temp dir; postgres://… → that database (CI makes a fresh one
 * per run). Every test builds its own workspace, so files never see each other's data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startFolio, type Running } from '../../src/start.js';
import { migratedSqliteTemplate } from './sqliteTemplate.js';

export interface TestServer {
  url: string;
  adminToken: string;
  dataDir: string;
  running: Running;
  close(): Promise<void>;
}

export const STORE = process.env.DATABASE_URL ? 'postgres' : 'sqlite';

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.FOLIO_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'folio-test-'));
  // A new SQLite store starts from the migrated template; a given data dir is used as it is.
  if (!env.FOLIO_DATA_DIR && !(env.DATABASE_URL ?? process.env.DATABASE_URL))
    fs.copyFileSync(await migratedSqliteTemplate(), path.join(dataDir, 'folio.sqlite'));
  const config = loadConfig({
    FOLIO_PORT: '1',
    FOLIO_RATE_LIMIT: 'off',
    // FOLIO_TEST_LOG_LEVEL=info shows a test server's log, to follow what it did when a test fails.
    FOLIO_LOG_LEVEL: process.env.FOLIO_TEST_LOG_LEVEL ?? 'silent',
    FOLIO_ADMIN_TOKEN: 'test-admin-token',
    // Every newest-version response is checked against its route's schema (src/http/checkResponses.ts).
    FOLIO_CHECK_RESPONSES: process.env.FOLIO_CHECK_RESPONSES ?? '1',
    PATH: process.env.PATH ?? '',
    // Off unless a test sets it: the first request of a kind loads (and, under tsx, compiles) its
    // modules, a second or more of blocked loop on a loaded machine that would be answered 529.
    FOLIO_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
    FOLIO_DATA_DIR: dataDir,
  });
  // Port 0 asks the OS for a free port; loadConfig refuses 0, so it is set after validation.
  config.port = Number(env.FOLIO_PORT ?? 0);
  const running = await startFolio(config);
  config.publicUrl = running.url;
  return {
    url: running.url,
    adminToken: running.adminToken,
    dataDir,
    running,
    close: () => running.close(),
  };
}

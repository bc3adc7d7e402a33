import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { REPO_ROOT, cleanEnv, freePort, spawnServer, tempDir, type ServerProcess } from './processes.js';

export interface FolioServer extends ServerProcess {
  adminToken: string;
  /** "sqlite", or "postgres <server version>". */
  store: string;
  /** A call to /admin/v1; throws unless it answers 200. */
  admin(method: string, path: string, body?: unknown): Promise<any>;
}

/** DATABASE_URL as it may be printed: the password, if any, masked. */
export function redactedDatabaseUrl(): string | null {
  const raw = process.env.DATABASE_URL?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://…';
  }
}

async function describeStore(): Promise<string> {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) return 'sqlite';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return `postgres ${rows[0].server_version.split(' ')[0]}`;
  } finally {
    await client.end();
  }
}

/**
 * Starts the compiled Folio (`node dist/src/cli.js serve`, or another entry to compare builds) as its own process on a fresh data dir,
 * configured as a production instance would be: warn-level logs and the rate limiter on, with a
 * budget no benchmark reaches so that its cost is measured but it never answers 429. The store
 * follows DATABASE_URL; REDIS_URL is not passed on, so the limiter is the in-memory one.
 */
export async function startFolioServer(options: { profile: boolean; entry: string; env?: Record<string, string> }): Promise<FolioServer> {
  const dataDir = tempDir('folio-bench-');
  const port = await freePort();
  const adminToken = `bench-${randomBytes(16).toString('hex')}`;
  const env = cleanEnv((name) => name.startsWith('FOLIO_') || name === 'DATABASE_URL' || name === 'REDIS_URL');
  Object.assign(env, {
    FOLIO_HOST: '127.0.0.1',
    FOLIO_PORT: String(port),
    FOLIO_DATA_DIR: dataDir.path,
    FOLIO_LOG_LEVEL: 'warn',
    FOLIO_RATE_LIMIT: '1000000',
    FOLIO_ADMIN_TOKEN: adminToken,
    // One process unless the run asks for more (FOLIO_PROCESSES=2 npm run bench -- …): earlier figures are of one.
    FOLIO_PROCESSES: process.env.FOLIO_PROCESSES ?? '1',
    ...options.env,
  });
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  const profileArgs = options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.join(REPO_ROOT, '.bench', 'profiles')] : [];
  const [server, store] = await Promise.all([
    spawnServer({ name: 'folio', args: [...profileArgs, options.entry, 'serve'], env, port, readyPath: '/readyz' }),
    describeStore(),
  ]);
  const admin = async (method: string, urlPath: string, body?: unknown) => {
    const response = await fetch(`${server.url}/admin/v1${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = await response.json();
    if (response.status !== 200) throw new Error(`admin ${method} ${urlPath} answered ${response.status}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    ...server,
    adminToken,
    store,
    admin,
    stop: async () => {
      await server.stop();
      dataDir.remove();
    },
  };
}

import path from 'node:path';
import { VISIBLE_FIRST_BELOW } from './storage/repositories/search.js';
import type { S3Settings } from './storage/files/fileStore.js';

/** Runtime configuration, read from the environment (see README "Configuration"). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  adminToken: string | null;
  redisUrl: string | null;
  /** Average requests per second allowed per connection; null disables limiting. */
  rateLimit: number | null;
  /** Window in seconds over which the average is kept; the burst is rateLimit × window. */
  rateLimitWindow: number;
  logLevel: string;
  /** Public base URL used to build `url` fields of pages and databases. */
  publicUrl: string;
  /** Search reads a connection's shares first when they reach fewer objects than this (src/storage/repositories/search.ts). */
  searchVisibleFirstBelow: number;
  /** Per-file limit reported on bot users (spec, "Bot info"). */
  maxFileUploadBytes: number;
  /** When set, uploaded bytes go to this S3-compatible bucket instead of the store (FOLIO_S3_*). */
  s3: S3Settings | null;
  /** `external_url` uploads may fetch loopback, private and link-local addresses, over http too (FOLIO_ALLOW_PRIVATE_URLS=1). */
  allowPrivateUrls: boolean;
  /** `POST /admin/v1/clock` may fix the server's time (src/clock.ts FixableClock); for test suites only. */
  testClock: boolean;
}

export const DEFAULT_PORT = 7071;

/** A self-hosted server behaves like a paid workspace by default (docs/decisions.md). */
export const DEFAULT_MAX_FILE_UPLOAD_BYTES = 5 * 1024 * 1024 * 1024;

function positiveNumber(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, instead was "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim();
  // Refused rather than read as off: a server started with `true` would silently not do what was asked.
  if (!['', '0', '1'].includes(raw)) throw new Error(`${name} must be 1 or 0, instead was "${env[name]}"`);
  return raw === '1';
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  const bucket = env.FOLIO_S3_BUCKET?.trim();
  if (!bucket) {
    const stray = Object.keys(env).filter((key) => key.startsWith('FOLIO_S3_') && env[key]);
    if (stray.length > 0) throw new Error(`${stray.join(', ')} given without FOLIO_S3_BUCKET`);
    return null;
  }
  const endpoint = env.FOLIO_S3_ENDPOINT?.trim() || null;
  if (endpoint && !/^https?:\/\//.test(endpoint)) throw new Error(`FOLIO_S3_ENDPOINT must be an http(s) URL, instead was "${endpoint}"`);
  return {
    bucket,
    endpoint,
    region: env.FOLIO_S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.FOLIO_S3_ACCESS_KEY_ID || null,
    secretAccessKey: env.FOLIO_S3_SECRET_ACCESS_KEY || null,
    forcePathStyle: flag(env, 'FOLIO_S3_FORCE_PATH_STYLE'),
    prefix: env.FOLIO_S3_PREFIX ?? '',
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.FOLIO_PORT ? positiveNumber('FOLIO_PORT', env.FOLIO_PORT) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port > 65535) throw new Error(`FOLIO_PORT must be a port number, instead was "${env.FOLIO_PORT}"`);
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite store)');
  }
  const rawLimit = (env.FOLIO_RATE_LIMIT ?? '3').trim();
  const rateLimit = rawLimit === 'off' ? null : positiveNumber('FOLIO_RATE_LIMIT', rawLimit);
  const host = env.FOLIO_HOST || '127.0.0.1';
  const rawTestClock = (env.FOLIO_TEST_CLOCK ?? '').trim();
  // Refused rather than read as off: a server started with `true` and no clock route would leave
  // the suite that set it failing far from the cause.
  if (!['', '0', '1'].includes(rawTestClock)) throw new Error(`FOLIO_TEST_CLOCK must be 1 or 0, instead was "${env.FOLIO_TEST_CLOCK}"`);
  return {
    host,
    port,
    dataDir: path.resolve(env.FOLIO_DATA_DIR || './.folio'),
    databaseUrl,
    adminToken: env.FOLIO_ADMIN_TOKEN || null,
    redisUrl: env.REDIS_URL || null,
    rateLimit,
    rateLimitWindow: env.FOLIO_RATE_LIMIT_WINDOW ? positiveNumber('FOLIO_RATE_LIMIT_WINDOW', env.FOLIO_RATE_LIMIT_WINDOW) : 10,
    logLevel: env.FOLIO_LOG_LEVEL || 'info',
    publicUrl: (env.FOLIO_PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ''),
    searchVisibleFirstBelow: env.FOLIO_SEARCH_VISIBLE_FIRST_BELOW
      ? positiveNumber('FOLIO_SEARCH_VISIBLE_FIRST_BELOW', env.FOLIO_SEARCH_VISIBLE_FIRST_BELOW)
      : VISIBLE_FIRST_BELOW,
    maxFileUploadBytes: env.FOLIO_MAX_FILE_UPLOAD_BYTES
      ? positiveNumber('FOLIO_MAX_FILE_UPLOAD_BYTES', env.FOLIO_MAX_FILE_UPLOAD_BYTES)
      : DEFAULT_MAX_FILE_UPLOAD_BYTES,
    testClock: rawTestClock === '1',
    s3: s3Settings(env),
    allowPrivateUrls: flag(env, 'FOLIO_ALLOW_PRIVATE_URLS'),
  };
}

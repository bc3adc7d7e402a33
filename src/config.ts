import path from 'node:path';
import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { VISIBLE_FIRST_BELOW } from './storage/repositories/search.js';
import { SQLITE_READ_MEMORY, type SqliteReadMemory } from './storage/createStore.js';
import type { S3Settings } from './storage/files/fileStore.js';
import type { TranscriptionSettings } from './processing/transcription/createTranscriber.js';
import type { SummarySettings } from './processing/summary/createSummarizer.js';

/** Runtime configuration, read from the environment (see README "Configuration"). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL connections per instance (FOLIO_PG_POOL_SIZE). */
  pgPoolSize: number;
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
  /** Every newest-version response is checked against its route's schema (FOLIO_CHECK_RESPONSES=1; test runs). */
  checkResponses: boolean;
  /** Background jobs: how many of each kind this server runs at once (0: none, leave them to `folio worker`), leases, polling, retries. */
  jobs: WorkerSettings;
  /** The meeting-notes transcription engine (FOLIO_TRANSCRIBER and its settings). */
  transcription: TranscriptionSettings;
  /** The meeting-notes summary engine (FOLIO_SUMMARIZER). */
  summary: SummarySettings;
  /** Longest recording meeting notes process, in seconds. */
  meetingNotesMaxSeconds: number;
  /** The ffmpeg binary meeting notes decode with (FOLIO_FFMPEG); null: the packaged build. */
  ffmpegPath: string | null;
  /** How many of the last requests the admin plane's request log keeps (FOLIO_REQUEST_LOG_SIZE; 0 keeps none). */
  requestLogSize: number;
  /** When set, /metrics answers only a request bearing this token (FOLIO_METRICS_TOKEN). */
  metricsToken: string | null;
  /** Whether requests and jobs are measured and /metrics served (FOLIO_METRICS, on unless 0). */
  metrics: boolean;
  /** Results a view query keeps, at most 10,000 as the service (FOLIO_VIEW_QUERY_RESULT_LIMIT; lower only to test the cap). */
  viewQueryResultLimit: number;
  /** Webhook delivery (src/commands/webhooks/): workers, the request timeout, the aggregation window. */
  webhooks: WebhookSettings;
  /** A fixture file loaded into an empty store at start, and what a reset to `seed` returns to (FOLIO_SEED; docs/fixtures.md). */
  seedFile: string | null;
  /** Overload and time budgets (src/http/overload.ts; docs/decisions.md "Overload and outages"). */
  overload: OverloadSettings;
  /** How long PostgreSQL uses a found caller without reading it again (FOLIO_CALLER_CACHE_MS; 0: never; docs/decisions.md "Caller cache on PostgreSQL"). */
  callerCacheMs: number;
  /** SQLite's page cache and memory map in MB (FOLIO_SQLITE_CACHE_MB, FOLIO_SQLITE_MMAP_MB; src/storage/createStore.ts). */
  sqliteMemory: SqliteReadMemory;
  /** Bytes of data-source query answers kept for the same query asked again with nothing written since (FOLIO_QUERY_CACHE_MB; 0: none; src/storage/answerCache.ts). */
  queryCacheBytes: number;
  /** Processes `folio serve` runs, sharing its port (FOLIO_PROCESSES, a number or `auto` for one per core; src/cli/serveProcesses.ts); 1: this process alone. */
  processes: number;
}

/** When the server refuses work rather than queue it, and how long one request may take. */
export interface OverloadSettings {
  /** Mean event-loop delay over a sample past which `/v1` requests answer 529 (FOLIO_MAX_EVENT_LOOP_DELAY_MS; 0: off). */
  maxEventLoopDelayMs: number;
  /** V8 heap in use past which `/v1` requests answer 529 (FOLIO_MAX_HEAP_BYTES; 0: off). */
  maxHeapBytes: number;
  /** How often the event-loop delay and the heap are sampled (FOLIO_PRESSURE_SAMPLE_MS). */
  sampleMs: number;
  /** A request not answered by then answers 504 (FOLIO_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

/** How this process delivers webhooks (docs/decisions.md "Webhook delivery"). */
export interface WebhookSettings {
  /** Workspaces whose events this process delivers at once (FOLIO_WEBHOOK_WORKERS). */
  slots: number;
  /** Handshakes this process sends at once (FOLIO_WEBHOOK_HANDSHAKE_WORKERS). */
  handshakeSlots: number;
  /** A receiver that has not answered by then failed this attempt (FOLIO_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long a `*.content_updated` waits for more of the same entity's, by the server's clock (FOLIO_WEBHOOK_AGGREGATION_MS). */
  aggregationMs: number;
  /** How long a delivery job, woken by a write, waits for the writes right behind it before fanning out (FOLIO_WEBHOOK_BATCH_MS). */
  batchMs: number;
}

/** How this process runs background jobs (src/worker/jobWorker.ts; each kind's slots read in src/jobs/kinds/). */
export interface WorkerSettings {
  /** Meeting-notes jobs this process runs at once (FOLIO_WORKERS). */
  meetingNotesSlots: number;
  /** External-URL imports this process runs at once (FOLIO_IMPORT_WORKERS). */
  fileImportSlots: number;
  /** Async tasks (`allow_async` requests) this process runs at once (FOLIO_ASYNC_TASK_WORKERS). */
  asyncTaskSlots: number;
  /** Templates this process applies at once (FOLIO_TEMPLATE_WORKERS). */
  applyTemplateSlots: number;
  /** How long a claim lasts without a heartbeat; a heartbeat renews it every third of it. */
  leaseMs: number;
  /** How often an idle worker looks for jobs another process enqueued. */
  pollMs: number;
  /** The first retry's delay; each later one doubles, up to five minutes. */
  retryBaseMs: number;
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

function choice<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = (env[name] ?? '').trim();
  if (!raw) return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, instead was "${raw}"`);
  return raw as T;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, minimum: number): number {
  const raw = (env[name] ?? '').trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number ≥ ${minimum}, instead was "${raw}"`);
  return value;
}

/** One OpenAI-compatible service serves both engines when both are `openai` (FOLIO_OPENAI_*). */
function processingSettings(env: NodeJS.ProcessEnv): Pick<Config, 'jobs' | 'transcription' | 'summary' | 'meetingNotesMaxSeconds' | 'ffmpegPath'> {
  const baseUrl = env.FOLIO_OPENAI_BASE_URL?.trim().replace(/\/+$/, '') || null;
  if (baseUrl && !/^https?:\/\//.test(baseUrl)) throw new Error(`FOLIO_OPENAI_BASE_URL must be an http(s) URL, instead was "${baseUrl}"`);
  const apiKey = env.FOLIO_OPENAI_API_KEY || null;
  const timeoutMs = wholeNumber(env, 'FOLIO_OPENAI_TIMEOUT_SECONDS', 600, 1) * 1000;
  return {
    jobs: {
      meetingNotesSlots: wholeNumber(env, 'FOLIO_WORKERS', 1, 0),
      fileImportSlots: wholeNumber(env, 'FOLIO_IMPORT_WORKERS', 2, 0),
      asyncTaskSlots: wholeNumber(env, 'FOLIO_ASYNC_TASK_WORKERS', 2, 0),
      applyTemplateSlots: wholeNumber(env, 'FOLIO_TEMPLATE_WORKERS', 1, 0),
      leaseMs: wholeNumber(env, 'FOLIO_JOB_LEASE_SECONDS', 30, 1) * 1000,
      pollMs: wholeNumber(env, 'FOLIO_JOB_POLL_MS', 1000, 10),
      retryBaseMs: wholeNumber(env, 'FOLIO_JOB_RETRY_MS', 10_000, 0),
    },
    transcription: {
      engine: choice(env, 'FOLIO_TRANSCRIBER', ['local', 'whisper', 'openai'] as const, 'local'),
      pocketsphinxPath: env.FOLIO_POCKETSPHINX?.trim() || null,
      searchPath: env.PATH ?? '',
      parallelism: wholeNumber(env, 'FOLIO_TRANSCRIBE_PARALLELISM', Math.min(2, availableParallelism()), 1),
      whisperModel: env.FOLIO_WHISPER_MODEL?.trim() || null,
      openai: { baseUrl, apiKey, model: env.FOLIO_OPENAI_TRANSCRIPTION_MODEL?.trim() || 'whisper-1', timeoutMs },
    },
    summary: {
      engine: choice(env, 'FOLIO_SUMMARIZER', ['local', 'openai'] as const, 'local'),
      openai: { baseUrl, apiKey, model: env.FOLIO_OPENAI_CHAT_MODEL?.trim() || 'gpt-4o-mini', timeoutMs, maxTranscriptChars: 48_000 },
    },
    meetingNotesMaxSeconds: wholeNumber(env, 'FOLIO_MEETING_NOTES_MAX_SECONDS', 4 * 3600, 1),
    ffmpegPath: env.FOLIO_FFMPEG?.trim() || null,
  };
}

/** The configuration of this process's environment with some variables set otherwise (the CLI's options). */
export function loadConfigWith(overrides: Record<string, string | undefined>): Config {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) env[name] = value;
  return loadConfig(env);
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
    pgPoolSize: env.FOLIO_PG_POOL_SIZE ? wholeNumber(env, 'FOLIO_PG_POOL_SIZE', 10, 1) : 10,
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
    checkResponses: flag(env, 'FOLIO_CHECK_RESPONSES'),
    s3: s3Settings(env),
    allowPrivateUrls: flag(env, 'FOLIO_ALLOW_PRIVATE_URLS'),
    requestLogSize: env.FOLIO_REQUEST_LOG_SIZE ? wholeNumber(env, 'FOLIO_REQUEST_LOG_SIZE', 1000, 0) : 1000,
    metricsToken: env.FOLIO_METRICS_TOKEN || null,
    metrics: (env.FOLIO_METRICS ?? '').trim() === '' ? true : flag(env, 'FOLIO_METRICS'),
    ...processingSettings(env),
    viewQueryResultLimit: Math.min(wholeNumber(env, 'FOLIO_VIEW_QUERY_RESULT_LIMIT', 10_000, 1), 10_000),
    webhooks: {
      slots: wholeNumber(env, 'FOLIO_WEBHOOK_WORKERS', 2, 0),
      handshakeSlots: wholeNumber(env, 'FOLIO_WEBHOOK_HANDSHAKE_WORKERS', 1, 0),
      timeoutMs: wholeNumber(env, 'FOLIO_WEBHOOK_TIMEOUT_MS', 10_000, 1),
      aggregationMs: wholeNumber(env, 'FOLIO_WEBHOOK_AGGREGATION_MS', 1000, 0),
      batchMs: wholeNumber(env, 'FOLIO_WEBHOOK_BATCH_MS', 200, 0),
    },
    seedFile: env.FOLIO_SEED?.trim() ? path.resolve(env.FOLIO_SEED.trim()) : null,
    overload: {
      maxEventLoopDelayMs: wholeNumber(env, 'FOLIO_MAX_EVENT_LOOP_DELAY_MS', 1000, 0),
      // Below V8's own limit, so the server refuses new work before the process dies of it.
      maxHeapBytes: wholeNumber(env, 'FOLIO_MAX_HEAP_BYTES', Math.floor(getHeapStatistics().heap_size_limit * 0.9), 0),
      sampleMs: wholeNumber(env, 'FOLIO_PRESSURE_SAMPLE_MS', 1000, 10),
      requestTimeoutMs: wholeNumber(env, 'FOLIO_REQUEST_TIMEOUT_MS', 60_000, 1),
    },
    callerCacheMs: wholeNumber(env, 'FOLIO_CALLER_CACHE_MS', 5_000, 0),
    sqliteMemory: {
      cacheMb: wholeNumber(env, 'FOLIO_SQLITE_CACHE_MB', SQLITE_READ_MEMORY.cacheMb, 0),
      mmapMb: wholeNumber(env, 'FOLIO_SQLITE_MMAP_MB', SQLITE_READ_MEMORY.mmapMb, 0),
    },
    queryCacheBytes: wholeNumber(env, 'FOLIO_QUERY_CACHE_MB', 32, 0) * 1024 * 1024,
    // `auto`: one per core. Not the default: faults, the request log and the test clock are per process (docs/decisions.md).
    processes: (env.FOLIO_PROCESSES ?? '').trim() === 'auto' ? availableParallelism() : wholeNumber(env, 'FOLIO_PROCESSES', 1, 1),
  };
}

import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Driver, type QueryCompiler, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { dialectOf, type Dialect } from './dialect.js';
import { migrationProvider } from './migrations/index.js';
import { postgresCallerLookup, sqliteCallerLookup, type CallerLookup } from './callerLookup.js';
import { callerChangesWritten, forgetCallersHere } from './callerChanges.js';
import { postgresWakeChannel, type WakeChannel } from './wakeChannel.js';
import { GroupCommitSqliteDriver, type GroupCommitStats } from './sqliteGroupCommit.js';
import { LiteralLimitQueryCompiler } from './limitCount.js';
import { postgresWriteStamp, sqliteWriteStamp, type WriteStamp } from './writeStamp.js';

export interface Store {
  db: Kysely<DB>;
  /** What differs between the stores (dialect.ts); its name is shown in logs and /readyz. */
  dialect: Dialect;
  /** Runs fn in one transaction; everything a command writes commits together or not at all. */
  transaction<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  /**
   * Runs fn in one transaction whose statements all read the same snapshot: REPEATABLE READ on
   * PostgreSQL, where READ COMMITTED gives each statement its own; SQLite's transactions always do.
   */
  snapshot<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The per-request token lookup, prepared once (see callerLookup.ts). */
  findCaller: CallerLookup;
  /** The PostgreSQL pool's connections; null on SQLite, which has one connection and no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** SQLite's write transactions and the group commits that made them durable (sqliteGroupCommit.ts); null on PostgreSQL. */
  commitStats(): GroupCommitStats | null;
  /** Job wake-ups between the processes on this store (LISTEN/NOTIFY); null on SQLite, whose processes are one server's (src/jobs/). */
  wakeChannel: WakeChannel | null;
  /** Moves whenever anything may have been written, by any process (writeStamp.ts). */
  writeStamp: WriteStamp;
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL connections (default 10). */
  poolSize?: number;
  /** How long PostgreSQL uses a found caller without reading it again (callerLookup.ts; default 5 s, 0: never). */
  callerCacheMs?: number;
  /** SQLite's page cache and memory map (tuneSqliteReads; default SQLITE_READ_MEMORY). */
  sqliteMemory?: SqliteReadMemory;
  /** SQLite: commit write transactions in groups (sqliteGroupCommit.ts; default true); false where several processes serve the file. */
  groupCommits?: boolean;
}

/** docs/decisions.md, "Caller cache on PostgreSQL". */
export const DEFAULT_CALLER_CACHE_MS = 5_000;

/**
 * Kysely's SQLite dialect with Folio's driver (sqliteGroupCommit.ts): write transactions begin
 * IMMEDIATE and commit in groups. Several processes may write one SQLite file (`folio serve
 * --processes`, `folio admin` beside a server). A transaction begun DEFERRED reads under a snapshot
 * and upgrades to the write lock at its first write; when another process committed meanwhile the
 * upgrade fails at once with SQLITE_BUSY, which busy_timeout cannot retry (the snapshot is stale):
 * 53–74% of 100 concurrent writes to one page from two processes were answered 409
 * (test/concurrency). So `Store.transaction` begins IMMEDIATE, waiting its turn for the write lock
 * up front; `Store.snapshot` (read-only, marked by its isolation level) stays DEFERRED so readers
 * never queue behind writers.
 */
class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: GroupCommitSqliteDriver) {
    super({ database: driver.database });
  }

  override createDriver(): Driver {
    return this.driver;
  }

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitQueryCompiler();
  }
}

function openSqlite(
  dataDir: string,
  memory: SqliteReadMemory,
  groupCommits: boolean,
): { db: Kysely<DB>; database: SQLite.Database; driver: GroupCommitSqliteDriver } {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, 'folio.sqlite'));
  database.pragma('journal_mode = WAL');
  // FULL: a commit answered 200 survives power loss too, not only a process crash.
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Ephemeral tables (an IN list, a GROUP BY, a materialised subquery, an ORDER BY's b-tree) and
  // the statement journal of each write inside a savepoint are kept in memory: on a temporary file
  // each statement using one set up a pager for it: the webhook outbox's INSERT … SELECT, which
  // every write runs, took 70 µs against 10 µs in memory (docs/benchmarks.md, "temp_store").
  database.pragma('temp_store = MEMORY');
  tuneSqliteReads(database, memory);
  const driver = new GroupCommitSqliteDriver(database, groupCommits);
  return { db: new Kysely<DB>({ dialect: new GroupCommitSqliteDialect(driver) }), database, driver };
}

/** Megabytes of SQLite's page cache (private memory of the process) and of its memory map of the file. */
export interface SqliteReadMemory {
  cacheMb: number;
  mmapMb: number;
}

/**
 * FOLIO_SQLITE_CACHE_MB and FOLIO_SQLITE_MMAP_MB. Both count in the process's resident memory as
 * they fill: the page cache as its own memory, the mapped pages of the file as shared file pages
 * the kernel may drop (docs/benchmarks.md, "memory at 1M pages"). The defaults keep a process
 * under 300 MB at a million pages (issue 29); a 1 GB map and a 128 MB cache took a search there
 * from 5.9 to 4.4 ms of store time, for an operator with the memory to give them (docs/decisions.md).
 */
export const SQLITE_READ_MEMORY: SqliteReadMemory = { cacheMb: 32, mmapMb: 0 };

/**
 * SQLite's own 2 MB page cache makes a large workspace re-read its indexes from the file on every
 * search. Memory-mapped reads, when configured, avoid a copy per page; writes still go through the
 * WAL. Exported so the search bench's raw SQL reads the file as the server does.
 */
export function tuneSqliteReads(database: SQLite.Database, memory: SqliteReadMemory = SQLITE_READ_MEMORY): void {
  database.pragma(`cache_size = -${Math.round(memory.cacheMb * 1024)}`);
  database.pragma(`mmap_size = ${Math.round(memory.mmapMb * 1024 * 1024)}`);
}

function openPostgres(url: string, poolSize: number): { db: Kysely<DB>; pool: pg.Pool } {
  // Counts and sums come back as bigint/numeric strings by default; the API wants numbers.
  pg.types.setTypeParser(20, (v) => Number(v));
  pg.types.setTypeParser(1700, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client whose server went away (PostgreSQL restarted, a proxy dropped it) emits this;
  // unheard it would end the process. The pool drops that client and opens a new one when asked,
  // and requests meanwhile answer 503 (src/storage/storeErrors.ts).
  pool.on('error', () => undefined);
  // A client handed out just as its socket closes (the store went away while it sat idle) has no
  // listener of the pool's while checked out, and Kysely adds none: its `error` event would end the
  // process. Heard here, the statement it was given fails as unavailable (503, storeErrors.ts) and
  // the pool drops the client when it is released. test/hardening/storeOutage.test.ts met it once
  // the caller cache let a request reach a command first after the outage began.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), pool };
}

/** A store that cannot be reached says so, naming where it looked (never the password). */
async function checkReachable(db: Kysely<DB>, url: string): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    let where = url;
    try {
      const parsed = new URL(url);
      parsed.password = '';
      where = parsed.toString();
    } catch {
      where = '(an unparsable DATABASE_URL)';
    }
    throw new Error(`cannot connect to PostgreSQL at ${where}: ${error instanceof Error ? error.message || String(error) : String(error)}`);
  }
}

/**
 * Some migrations rebuild an index over existing content and take minutes on a large store
 * (docs/benchmarks.md), and another instance may hold the migration lock: past a second, say that
 * the store is migrating and for how long, so a silent start is not mistaken for a hang.
 */
async function withProgress<T>(run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  let reported = false;
  const report = () => {
    process.stderr.write(`folio: migrating the store, ${seconds()} so far\n`);
    reported = true;
  };
  const first = setTimeout(report, 1000);
  const every = setInterval(report, 10_000);
  try {
    return await run();
  } finally {
    clearTimeout(first);
    clearInterval(every);
    if (reported) process.stderr.write(`folio: migrations done in ${seconds()}\n`);
  }
}

/**
 * Runs a transaction and, if it wrote a caller change (callerChanges.ts), tells this process's
 * caller caches once it has committed, so this instance's next request sees it without waiting for
 * its own notice. A change written meanwhile by another transaction only makes them forget more.
 */
async function tellingCallerCaches<T>(run: () => Promise<T>): Promise<T> {
  const before = callerChangesWritten();
  const result = await run();
  if (callerChangesWritten() !== before) forgetCallersHere();
  return result;
}

export async function createStore(options: StoreOptions): Promise<Store> {
  let db: Kysely<DB>;
  let makeLookup: () => CallerLookup;
  let poolStats: Store['poolStats'] = () => null;
  let commitStats: Store['commitStats'] = () => null;
  let closeLookup: () => Promise<void> = async () => undefined;
  let wakeChannel: WakeChannel | null = null;
  let writeStamp: WriteStamp;
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    const opened = openPostgres(options.databaseUrl, options.poolSize ?? 10);
    db = opened.db;
    poolStats = () => ({ total: opened.pool.totalCount, idle: opened.pool.idleCount, waiting: opened.pool.waitingCount });
    makeLookup = () => {
      const found = postgresCallerLookup(opened.pool, { url, windowMs: options.callerCacheMs ?? DEFAULT_CALLER_CACHE_MS });
      closeLookup = found.close;
      return found.lookup;
    };
    wakeChannel = postgresWakeChannel(opened.pool, options.databaseUrl);
    writeStamp = postgresWriteStamp(opened.pool);
  } else {
    const opened = openSqlite(options.dataDir, options.sqliteMemory ?? SQLITE_READ_MEMORY, options.groupCommits ?? true);
    db = opened.db;
    commitStats = () => ({ ...opened.driver.stats });
    const undone = () => opened.driver.undone;
    makeLookup = () => sqliteCallerLookup(opened.database, undone);
    const readStamp = sqliteWriteStamp(opened.database, undone);
    writeStamp = async () => readStamp();
  }
  if (options.databaseUrl) await checkReachable(db, options.databaseUrl);
  // Kysely's migrator takes a table lock on PostgreSQL, so several instances may start at once.
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await withProgress(() => migrator.migrateToLatest());
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  const findCaller = makeLookup();
  return {
    db,
    dialect: dialectOf(db),
    transaction: (fn) => tellingCallerCaches(() => db.transaction().execute(fn)),
    snapshot: (fn) => tellingCallerCaches(() => db.transaction().setIsolationLevel('repeatable read').execute(fn)),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await closeLookup();
      await wakeChannel?.close();
      await db.destroy();
    },
    // Prepared after migrations: the statement needs the tables to exist.
    findCaller,
    poolStats,
    commitStats,
    wakeChannel,
    writeStamp,
  };
}

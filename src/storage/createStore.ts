import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import type { DB } from './schema.js';
import { migrationProvider } from './migrations/index.js';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<DB> | Transaction<DB>;

export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Runs fn in one transaction; everything a command writes commits together or not at all. */
  transaction<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
}

function openSqlite(dataDir: string): Kysely<DB> {
  fs.mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(path.join(dataDir, 'folio.sqlite'));
  database.pragma('journal_mode = WAL');
  // FULL: a commit answered 200 survives power loss too, not only a process crash.
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
}

function openPostgres(url: string): Kysely<DB> {
  // Counts and sums come back as bigint/numeric strings by default; the API wants numbers.
  pg.types.setTypeParser(20, (v) => Number(v));
  pg.types.setTypeParser(1700, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.FOLIO_PG_POOL_SIZE || 10) });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

export async function createStore(options: StoreOptions): Promise<Store> {
  const dialect: Dialect = options.databaseUrl ? 'postgres' : 'sqlite';
  const db = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options.dataDir);
  // Kysely's migrator takes a table lock on PostgreSQL, so several instances may start at once.
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
  return {
    db,
    dialect,
    transaction: (fn) => db.transaction().execute(fn),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

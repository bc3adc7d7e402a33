import { sql } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../dialect.js';
import { changingCallers } from '../callerChanges.js';

/**
 * Tables an empty reset keeps: the migrations' own; the settings (the secret that signs file links,
 * whether processing is paused), which describe the deployment rather than its content; and
 * SQLite's search clock, one row the search triggers count with (migration 002).
 */
const KEPT = new Set(['kysely_migration', 'kysely_migration_lock', 'settings', 'search_clock']);

/**
 * Every content table of the store, read from the database itself, so a table a later migration
 * adds is emptied without being listed here. On SQLite a full-text table and its shadow tables
 * (`<name>_data`, `<name>_idx`, …) are left alone: it indexes a content table through triggers,
 * which keep it in step as that table is emptied.
 */
async function contentTables(db: Db): Promise<string[]> {
  if (dialectOf(db).name === 'postgres') {
    const { rows } = await sql<{ tablename: string }>`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`.execute(db);
    return rows.map((r) => r.tablename).filter((name) => !KEPT.has(name));
  }
  const { rows } = await sql<{ name: string; sql: string | null }>`SELECT name, sql FROM sqlite_master WHERE type = 'table'`.execute(db);
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name);
  return rows
    .map((r) => r.name)
    .filter((name) => !name.startsWith('sqlite_') && !KEPT.has(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)));
}

/** The keys of every stored file, to delete from the file store once the rows are gone. */
export async function allBlobKeys(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('file_blobs').select('key').execute();
  return rows.map((r) => r.key);
}

/** Deletes every row of every content table, in the caller's transaction. */
export async function emptyStore(db: Db): Promise<void> {
  const tables = await contentTables(db);
  if (tables.length === 0) return;
  // Every connection goes, and a reset to a seed brings back the same tokens on new rows: both
  // stores' caller caches must hear of it (callerChanges.ts).
  await changingCallers(db, async (trx) => {
    if (dialectOf(trx).name === 'postgres') {
      await sql`TRUNCATE ${sql.join(tables.map((t) => sql.id(t)))}`.execute(trx);
      return;
    }
    // SQLite checks foreign keys per statement unless deferred; the transaction ends with none left.
    await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
    for (const table of tables) await sql`DELETE FROM ${sql.id(table)}`.execute(trx);
  });
}

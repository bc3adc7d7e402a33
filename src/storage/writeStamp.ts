import type SQLite from 'better-sqlite3';
import type pg from 'pg';

/**
 * A store's write stamp: a text read before a read, equal to a later reading only if nothing was
 * committed (or undone) in the store in between, so what that read found may be used again while
 * the stamp stays the same (the caller cache, callerLookup.ts; kept answers, answerCache.ts).
 * A stamp may move when nothing that matters changed; it never stays put when something did.
 */
export type WriteStamp = () => Promise<string>;

/**
 * SQLite: three counters, read without a table read.
 * - `total_changes()`: rows written by this process's connection, every write of this process
 *   (with group commits, rows of a group not yet committed too: an answer that read them waits
 *   for the group's commit like any reader, sqliteGroupCommit.ts);
 * - the driver's count of transactions undone (`undone`): a group whose commit failed takes back
 *   rows total_changes() counted, which a read may have seen;
 * - `data_version` (sqliteOtherWrites): moves when another process commits.
 */
export function sqliteWriteStamp(database: SQLite.Database, undone: () => number): () => string {
  const localWrites = database.prepare('select total_changes()').pluck();
  const otherWrites = sqliteOtherWrites(database);
  return () => `${localWrites.get() as number}.${undone()}.${otherWrites()}`;
}

/**
 * SQLite's `data_version`: moves when another process (`folio admin`, a second server on the same
 * file) commits. Reading it takes the WAL's shared-memory locks (4 µs here, against 0.2 µs for
 * total_changes()); with `oncePerTurn` it is read once per event-loop turn, for a check made on
 * every request: such a request is checked against a value read after it arrived, unless it came
 * in during the turn in progress.
 */
export function sqliteOtherWrites(database: SQLite.Database, oncePerTurn = false): () => number {
  const statement = database.prepare('select data_version from pragma_data_version()').pluck();
  if (!oncePerTurn) return () => statement.get() as number;
  let turnDataVersion: number | null = null;
  return () => {
    if (turnDataVersion === null) {
      turnDataVersion = statement.get() as number;
      setImmediate(() => {
        turnDataVersion = null;
      });
    }
    return turnDataVersion;
  };
}

/**
 * PostgreSQL: `pg_current_snapshot()`, the cluster's set of committed transactions as its xmin,
 * xmax and in-progress ids. Any commit of a transaction that wrote changes it (its id leaves the
 * in-progress list, or one assigned since raises xmax), so two equal readings mean no writer
 * committed in between, on this instance or any other; a read-only transaction has no id and
 * moves nothing. One round trip.
 */
export function postgresWriteStamp(pool: pg.Pool): WriteStamp {
  return async () => {
    const { rows } = await pool.query<{ stamp: string }>({ name: 'folio_write_stamp', text: 'select pg_current_snapshot()::text as stamp' });
    return rows[0].stamp;
  };
}

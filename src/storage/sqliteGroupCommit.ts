/**
 * The SQLite driver: one connection, used by one holder at a time, whose write transactions commit
 * in groups. A commit on SQLite with `synchronous = FULL` waits for the WAL's fsync, about a
 * millisecond on a virtual disk and the largest single cost of a page creation under load
 * (docs/benchmarks.md, "Page creation and appends on SQLite"). A write transaction that ends is
 * released into an outer transaction (the group) that stays open until the end of the event loop's
 * turn: the other requests of that turn write into it too, and one commit, one fsync, makes them
 * all durable. Nothing is answered before its durable commit: every holder that ran inside the
 * group (a write transaction, or a read that saw the group's uncommitted rows) waits for that
 * commit, and fails with its error if it fails, so an acknowledged write is on disk as before and
 * no answer shows rows that were never committed.
 *
 * Each write transaction is a savepoint in the group, so one that fails is rolled back alone.
 * Kysely's own SqliteDriver cannot do this: its commit must return before the connection is
 * released (docs/decisions.md, "Group commit on SQLite").
 */
import type SQLite from 'better-sqlite3';
import { CompiledQuery, SelectQueryNode, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';

/** A group commits at the end of the event loop's turn, or sooner once this many holders have run in it: each waits for its commit. */
export const GROUP_MAX_MEMBERS = 64;

/** What the driver has done, for /metrics: how many write transactions, and how many commits they took. */
export interface GroupCommitStats {
  transactions: number;
  commits: number;
}

interface Group {
  members: number;
  /** Whether its commit is scheduled for the end of this turn of the event loop… */
  scheduled: boolean;
  /** …and whether that came while a holder had the connection, which then commits it on release. */
  commitDue: boolean;
  durable: Promise<void>;
  settle: (error?: unknown) => void;
}

/** One holder of the connection, from acquire to release. */
class Holder implements DatabaseConnection {
  /** How its transaction began: its own deferred one (a snapshot outside any group), or a savepoint in the group. */
  transaction: 'none' | 'own' | 'savepoint' = 'none';
  /** Whether it ran inside the open group, and so must wait for the group's commit. */
  inGroup = false;
  /** The error that ended SQLite's transaction under its own savepoint: every later statement of its transaction fails with it. */
  failed: unknown = undefined;

  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return Promise.resolve(
      this.driver.run(this, () => {
        const statement = this.driver.prepare(compiled.sql);
        const parameters = compiled.parameters as unknown[];
        if (statement.reader) return { rows: statement.all(parameters) as R[] };
        const { changes, lastInsertRowid } = statement.run(parameters);
        return {
          numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
          insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
          rows: [],
        };
      }),
    );
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const rows = this.driver.run(this, () => this.driver.prepare(compiled.sql).iterate(compiled.parameters as unknown[]));
    for (const row of rows) yield { rows: [row as R] };
  }
}

/**
 * Kysely prepares every statement anew; better-sqlite3 statements are reusable, and preparing costs
 * more than running (docs/benchmarks.md). Statements are cached by SQL text, oldest evicted first;
 * safe because one holder at a time runs one statement at a time.
 */
const STATEMENT_CACHE_SIZE = 500;

export class GroupCommitSqliteDriver implements Driver {
  private held = false;
  private readonly statements = new Map<string, SQLite.Statement>();
  private readonly waiting: (() => void)[] = [];
  private group: Group | null = null;
  readonly stats: GroupCommitStats = { transactions: 0, commits: 0 };
  /** Transactions and groups rolled back: each may take back rows a read saw (writeStamp.ts). */
  undone = 0;

  /**
   * `grouped` false commits each write transaction as it ends: for a file several processes serve,
   * where a group holding the write lock for a whole turn made the other processes wait for it in
   * SQLite's busy handler, which blocks their event loop (answered 529 under load).
   */
  constructor(
    readonly database: SQLite.Database,
    private readonly grouped = true,
  ) {}

  async init(): Promise<void> {}

  prepare(source: string): SQLite.Statement {
    let statement = this.statements.get(source);
    if (!statement) {
      statement = this.database.prepare(source);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(source, statement);
    }
    return statement;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // Handed over by `pass`, which leaves `held` set for the next holder.
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    return new Holder(this);
  }

  /**
   * Runs one of a holder's statements. A holder that runs one while the group is open reads or
   * writes the group's rows, so it joins the group. An error that ends SQLite's transaction itself
   * (a full disk, an I/O error) fails the whole group at once with that error.
   */
  run<T>(holder: Holder, statement: () => T): T {
    const group = this.group;
    // A transaction whose group failed under it has nothing left to write into: outside a
    // transaction its next statements would commit one by one, a part of it kept.
    if (holder.failed) throw holder.failed;
    if (group && !holder.inGroup) {
      holder.inGroup = true;
      group.members += 1;
    }
    try {
      return statement();
    } catch (error) {
      if (group && this.group === group && !this.database.inTransaction) {
        this.failGroup(error);
        if (holder.transaction === 'savepoint') holder.failed = error;
      }
      throw error;
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const holder = connection as Holder;
    // A snapshot (read-only, marked by its isolation level) outside a group reads under a deferred
    // transaction, so readers never take the write lock; inside one it is a savepoint like the rest.
    if (settings.isolationLevel && !this.group) {
      this.run(holder, () => this.database.exec('begin'));
      holder.transaction = 'own';
      return;
    }
    if (!this.group) this.openGroup();
    this.run(holder, () => this.database.exec('savepoint folio_member'));
    holder.transaction = 'savepoint';
    if (!settings.isolationLevel) this.stats.transactions += 1;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    this.run(holder, () => this.database.exec(holder.transaction === 'own' ? 'commit' : 'release folio_member'));
    holder.transaction = 'none';
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    const own = holder.transaction === 'own';
    holder.transaction = 'none';
    // Nothing left to roll back to when SQLite ended the transaction itself (`run` failed the group).
    if (!this.database.inTransaction) return;
    this.undone += 1;
    this.run(holder, () => this.database.exec(own ? 'rollback' : 'rollback to folio_member; release folio_member'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const holder = connection as Holder;
    const group = this.group;
    if (group) {
      if (group.commitDue || group.members >= GROUP_MAX_MEMBERS || !this.grouped) this.commitGroup(group);
      else if (!group.scheduled) {
        // The requests this turn of the event loop handles run their statements now (better-sqlite3
        // answers synchronously); their write transactions join this one until the turn ends.
        group.scheduled = true;
        setImmediate(() => this.commitWhenFree(group));
      }
    }
    this.pass();
    if (group && holder.inGroup) return group.durable;
  }

  async destroy(): Promise<void> {
    if (this.group && !this.held) this.commitGroup(this.group);
    this.database.close();
  }

  private openGroup(): void {
    this.database.exec('begin immediate');
    let settle!: (error?: unknown) => void;
    const durable = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Members that were rolled back alone never read it; an unheard rejection must not end the process.
    durable.catch(() => undefined);
    this.group = { members: 0, scheduled: false, commitDue: false, durable, settle };
  }

  /** Commits the group unless a holder is mid-statement or mid-transaction: then its release does. */
  private commitWhenFree(group: Group): void {
    if (this.group !== group) return;
    if (this.held) group.commitDue = true;
    else this.commitGroup(group);
  }

  private commitGroup(group: Group): void {
    this.group = null;
    try {
      this.database.exec('commit');
      this.stats.commits += 1;
      group.settle();
    } catch (error) {
      this.undone += 1;
      if (this.database.inTransaction) this.database.exec('rollback');
      group.settle(error);
    }
  }

  private failGroup(error: unknown): void {
    this.undone += 1;
    const group = this.group!;
    this.group = null;
    group.settle(error);
  }

  /** Gives the connection to the next holder in line, or frees it. */
  private pass(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

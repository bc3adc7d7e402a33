import type { Db } from './db.js';
import { dialectOf } from './dialect.js';

/**
 * This process's caller caches (callerLookup.ts), told of a change as soon as it commits: their
 * own instance's notice comes back through the listener a moment later, and a request answered
 * after the write's own response must already see it. Process-wide, since a process may hold
 * several stores (tests do); forgetting too much costs one lookup.
 */
const localCaches = new Set<() => void>();
/** Moves with every caller change written in this process, so a transaction can tell it wrote one. */
let written = 0;

/** Registers a cache to forget everything when a caller change commits here; returns its removal. */
export function forgetOnLocalChange(forget: () => void): () => void {
  localCaches.add(forget);
  return () => localCaches.delete(forget);
}

/** How many caller changes this process has written; the store compares it around a transaction. */
export function callerChangesWritten(): number {
  return written;
}

/** Called once a transaction that wrote a caller change has committed. */
export function forgetCallersHere(): void {
  for (const forget of localCaches) forget();
}

/**
 * Runs a write to a column a caller is resolved from (CallerRows in callerLookup.ts: connections,
 * their bot and person users, workspaces) together with the store's notice that callers changed,
 * in one transaction: PostgreSQL instances drop their cached callers when it commits, and hear
 * nothing if it rolls back. Given a transaction, both run in it (the store's `transaction` tells
 * this process's caches after the commit); given the store, in a new one, so that no instance can
 * miss a write that committed. Every writer of those columns goes through here;
 * test/platform/callerCache.test.ts checks the ones a caller can see.
 */
export async function changingCallers<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T> {
  const notice = dialectOf(db).callerChangeNotice;
  const run = async (trx: Db) => {
    const result = await write(trx);
    await notice?.execute(trx);
    // Counted as written, not as committed: SQLite's lookup stamp reads it (callerLookup.ts), and
    // a lookup in the same group commit already sees the uncommitted change.
    written += 1;
    return result;
  };
  if (db.isTransaction) return run(db);
  const result = await db.transaction().execute(run);
  forgetCallersHere();
  return result;
}

import type { Db } from './db.js';
import { dialectOf } from './dialect.js';

/**
 * Runs a write to a column a caller is resolved from (CallerRows in callerLookup.ts: connections,
 * their bot and person users, workspaces) together with the store's notice that callers changed,
 * in one transaction: PostgreSQL instances drop their cached callers when it commits, and hear
 * nothing if it rolls back. Given a transaction, both run in it; given the store, in a new one, so
 * that no instance can miss a write that committed. Every writer of those columns goes through
 * here; test/platform/callerCache.test.ts checks the ones a caller can see.
 */
export async function changingCallers<T>(db: Db, write: (db: Db) => Promise<T>): Promise<T> {
  const notice = dialectOf(db).callerChangeNotice;
  if (!notice) return write(db);
  const run = async (trx: Db) => {
    const result = await write(trx);
    await notice.execute(trx);
    return result;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

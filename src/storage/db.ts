import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * What repositories run their statements on: the store's database or a transaction of it. A
 * module of its own so that repositories need not import the store (createStore.ts imports them).
 */
export type Db = Kysely<DB> | Transaction<DB>;

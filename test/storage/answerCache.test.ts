/**
 * The kept-answer cache over a real store (src/storage/answerCache.ts): an answer is found again
 * while nothing is written, one kept while something was written is not kept at all, the first
 * lookup after a write drops every answer kept before it (they can never be used again), and the
 * bytes held stay under the bound, one answer at most an eighth of it.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createStore, type Store } from '../../src/storage/createStore.js';
import { AnswerCache } from '../../src/storage/answerCache.js';

/** Lets the cache's check after a query (a stamp read, a round trip on PostgreSQL) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('kept answers over a store', () => {
  let store: Store;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-answers-'));
    store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir: dir });
  });
  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const write = () =>
    store.transaction((trx) =>
      trx
        .insertInto('settings')
        .values({ key: `answers-${randomUUID()}`, value: 'v' })
        .execute(),
    );
  /** Looks `key` up until an answer kept under it is found, keeping `body` after each miss. */
  async function keepAndFind(cache: AnswerCache, key: string, body: string): Promise<string | Buffer | null> {
    // On PostgreSQL the stamp is the cluster's: a commit elsewhere may move it between two reads.
    for (let attempt = 0; attempt < 5; attempt++) {
      const found = await cache.lookup(key);
      if (found.body !== null) return found.body;
      found.keep(body);
      await settle();
    }
    return null;
  }

  test('found again while nothing is written; after a write, nothing kept before is held', async () => {
    const cache = new AnswerCache(store.writeStamp, 1024 * 1024);
    assert.equal(await keepAndFind(cache, 'a', '{"a":1}'), '{"a":1}');
    assert.equal(await keepAndFind(cache, 'b', '{"b":22}'), '{"b":22}');
    assert.ok(cache.heldBytes >= 8);
    await write();
    const after = await cache.lookup('a');
    assert.equal(after.body, null);
    assert.equal(cache.heldBytes, 0);
    assert.equal(cache.stats.kept >= 2, true);
  });

  test('an answer read while something was written is not kept', async () => {
    const cache = new AnswerCache(store.writeStamp, 1024 * 1024);
    const found = await cache.lookup('c');
    await write();
    found.keep('{"c":"maybe stale"}');
    await settle();
    assert.equal(cache.heldBytes, 0);
    assert.equal((await cache.lookup('c')).body, null);
  });

  test('the bytes held stay under the bound, the least recently used answer going first', async () => {
    const cache = new AnswerCache(store.writeStamp, 950);
    const body = (n: number) => `"${String(n).repeat(98)}"`;
    for (let attempt = 0; attempt < 5; attempt++) {
      await write();
      for (let n = 1; n <= 9; n++) {
        (await cache.lookup(`k${n}`)).keep(body(n));
        await settle();
      }
      // Nine of 100 bytes under a bound of 950: all held, unless a commit elsewhere moved the stamp.
      if (cache.heldBytes === 900) break;
    }
    assert.equal(cache.heldBytes, 900);
    assert.equal((await cache.lookup('k1')).body, body(1));
    (await cache.lookup('k10')).keep(body(0));
    await settle();
    assert.ok(cache.heldBytes <= 950);
    // k2 was the least recently used: k1 was found again after it was kept.
    assert.equal((await cache.lookup('k2')).body, null);
    assert.equal((await cache.lookup('k1')).body, body(1));
    // Larger than an eighth of the bound: never kept.
    (await cache.lookup('big')).keep(`"${'x'.repeat(200)}"`);
    await settle();
    assert.equal((await cache.lookup('big')).body, null);
  });
});

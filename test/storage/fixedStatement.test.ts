/**
 * Statements built once and run with new arguments (src/storage/fixedStatement.ts), over a real
 * store: each run binds its own arguments (not the first run's), constants the builder bound stay
 * bound, an argument used twice is bound twice, a list goes in as one parameter of any length, and
 * an argument left undefined is refused before anything runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createStore, type Store } from '../../src/storage/createStore.js';
import { fixedStatement } from '../../src/storage/fixedStatement.js';
import { dialectOf } from '../../src/storage/dialect.js';

describe('fixed statements over a store', () => {
  let store: Store;
  let dir: string;
  const prefix = `fixed-${randomUUID()}-`;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-fixed-'));
    store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir: dir });
  });
  after(async () => {
    await store.db.deleteFrom('settings').where('key', 'like', `${prefix}%`).execute();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // `value` is bound twice (the insert and the update on conflict); 'kept' is the builder's own constant.
  const upsert = fixedStatement((db, args: { key: string; value: string }) =>
    db
      .insertInto('settings')
      .values({ key: args.key, value: args.value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: args.value })),
  );
  const read = fixedStatement((db, args: { key: string }) => db.selectFrom('settings').select(['key', 'value']).where('key', '=', args.key));
  const readMarked = fixedStatement((db, args: { key: string }) =>
    db.selectFrom('settings').select('value').where('key', '=', args.key).where('value', '!=', 'kept'),
  );
  const readMany = fixedStatement((db, args: { keys: unknown }) =>
    db.selectFrom('settings').select('key').where(dialectOf(db).inTextList('key', args.keys)).orderBy('key'),
  );

  test('each run binds its own arguments, and an argument used twice both times', async () => {
    await store.transaction(async (trx) => {
      await upsert.run(trx, { key: `${prefix}a`, value: 'one' });
      await upsert.run(trx, { key: `${prefix}b`, value: 'two' });
      await upsert.run(trx, { key: `${prefix}a`, value: 'three' });
    });
    assert.deepEqual(await read.first(store.db, { key: `${prefix}a` }), { key: `${prefix}a`, value: 'three' });
    assert.deepEqual(await read.rows(store.db, { key: `${prefix}b` }), [{ key: `${prefix}b`, value: 'two' }]);
    assert.equal(await read.first(store.db, { key: `${prefix}missing` }), undefined);
  });

  test("the builder's own constants stay bound", async () => {
    await upsert.run(store.db, { key: `${prefix}k`, value: 'kept' });
    await upsert.run(store.db, { key: `${prefix}m`, value: 'moved' });
    assert.equal(await readMarked.first(store.db, { key: `${prefix}k` }), undefined);
    assert.deepEqual(await readMarked.first(store.db, { key: `${prefix}m` }), { value: 'moved' });
  });

  test('a list is one parameter, of any length', async () => {
    const dialect = dialectOf(store.db);
    const keys = (names: string[]) => ({ keys: dialect.textList(names.map((n) => `${prefix}${n}`)) });
    assert.deepEqual(
      (await readMany.rows(store.db, keys(['a', 'b', 'nothing']))).map((r) => r.key),
      [`${prefix}a`, `${prefix}b`],
    );
    assert.deepEqual(
      (await readMany.rows(store.db, keys(['b']))).map((r) => r.key),
      [`${prefix}b`],
    );
    assert.deepEqual(await readMany.rows(store.db, keys([])), []);
  });

  test('an argument left undefined is refused, naming it', async () => {
    await assert.rejects(
      () => upsert.run(store.db, { key: `${prefix}u`, value: undefined as unknown as string }),
      (error: Error) => error instanceof TypeError && /"value" is undefined/.test(error.message),
    );
    assert.equal(await read.first(store.db, { key: `${prefix}u` }), undefined);
  });
});

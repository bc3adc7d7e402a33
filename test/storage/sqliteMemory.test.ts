/**
 * FOLIO_SQLITE_CACHE_MB and FOLIO_SQLITE_MMAP_MB bound what SQLite holds in a process's resident
 * memory (docs/benchmarks.md, "memory at 1M pages"): read from the environment, and set on the
 * store's own connection. SQLite only: PostgreSQL's memory is its server's, not Folio's process's.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createStore, SQLITE_READ_MEMORY } from '../../src/storage/createStore.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-sqlite-memory-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the page cache and memory map come from the environment, defaults otherwise', () => {
  assert.deepEqual(loadConfig({}).sqliteMemory, SQLITE_READ_MEMORY);
  assert.deepEqual(loadConfig({ FOLIO_SQLITE_CACHE_MB: '64', FOLIO_SQLITE_MMAP_MB: '0' }).sqliteMemory, { cacheMb: 64, mmapMb: 0 });
  assert.throws(() => loadConfig({ FOLIO_SQLITE_MMAP_MB: '-1' }), /FOLIO_SQLITE_MMAP_MB must be a whole number/);
});

test('the SQLite store runs with the sizes it was given', { skip: process.env.DATABASE_URL ? 'SQLite settings' : false }, async () => {
  const store = await createStore({ databaseUrl: null, dataDir: dir, sqliteMemory: { cacheMb: 16, mmapMb: 0 } });
  try {
    const pragma = async (name: 'cache_size' | 'mmap_size' | 'temp_store') =>
      Number(Object.values((await sql.raw(`PRAGMA ${name}`).execute(store.db)).rows[0] as object)[0]);
    assert.equal(await pragma('cache_size'), -16 * 1024);
    assert.equal(await pragma('mmap_size'), 0);
    // 2: MEMORY (src/storage/createStore.ts says why).
    assert.equal(await pragma('temp_store'), 2);
  } finally {
    await store.close();
  }
});

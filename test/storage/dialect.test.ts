/**
 * The dialect's pieces for the features written on it next (a filter compiler, durable jobs), run
 * on the real store: a list bound as one parameter, and claiming jobs in write transactions. Two
 * tests run on one store only, each saying why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { sql } from 'kysely';
import { startTestServer, STORE, type TestServer } from '../helpers/server.js';
import type { Store } from '../../src/storage/createStore.js';
import type { Db } from '../../src/storage/db.js';
import { openStore } from '../helpers/useStore.js';
import { CALLER_CHANNEL, dialectOf } from '../../src/storage/dialect.js';
import { limitCountText } from '../../src/storage/limitCount.js';

describe('the store dialect', () => {
  let server: TestServer;
  let store: Store;
  // A table of this file's own, shaped like a job queue; dropped at the end.
  const jobs = sql.table(`dialect_test_jobs_${randomUUID().replace(/-/g, '')}`);

  before(async () => {
    server = await startTestServer();
    store = await openStore(server);
    await sql`CREATE TABLE ${jobs} (id TEXT PRIMARY KEY, state TEXT NOT NULL)`.execute(store.db);
  });
  after(async () => {
    await sql`DROP TABLE ${jobs}`.execute(store.db);
    await store.close();
    await server.close();
  });

  const queue = async (ids: string[]) => {
    await sql`DELETE FROM ${jobs}`.execute(store.db);
    for (const id of ids) await sql`INSERT INTO ${jobs} (id, state) VALUES (${id}, 'queued')`.execute(store.db);
  };

  /** Claims the first queued job, or null when none is free. */
  const claimNext = async (db: Db): Promise<string | null> => {
    const { rows } = await sql<{ id: string }>`SELECT id FROM ${jobs} WHERE state = 'queued' ORDER BY id LIMIT 1 ${store.dialect.claimLock}`.execute(db);
    if (rows.length === 0) return null;
    await sql`UPDATE ${jobs} SET state = 'running' WHERE id = ${rows[0].id}`.execute(db);
    return rows[0].id;
  };

  test('is named after the store it runs on', () => {
    assert.equal(store.dialect.name, STORE);
  });

  test('readIndex reads a table through the named index (SQLite plans with it; PostgreSQL runs the same statement)', async () => {
    await queue(['b', 'a', 'c']);
    await sql`CREATE INDEX IF NOT EXISTS dialect_test_jobs_state ON ${jobs} (state, id)`.execute(store.db);
    const statement = sql<{ id: string }>`SELECT id FROM ${jobs} j${store.dialect.readIndex('dialect_test_jobs_state')} WHERE state = 'queued' ORDER BY id`;
    assert.deepEqual(
      (await statement.execute(store.db)).rows.map((r) => r.id),
      ['a', 'b', 'c'],
    );
    if (store.dialect.name === 'sqlite') {
      const { rows } = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${statement}`.execute(store.db);
      assert.match(rows.map((r) => r.detail).join('\n'), /USING (COVERING )?INDEX dialect_test_jobs_state/);
    }
  });

  test('joinTexts joins a group of texts with the separator', async () => {
    await queue(['a1', 'a2', 'b1']);
    const { rows } = await sql<{
      g: string;
      joined: string;
    }>`SELECT substr(id, 1, 1) AS g, ${store.dialect.joinTexts(sql`id || ${'\x1f'} || state`, '\x1e')} AS joined FROM ${jobs} GROUP BY substr(id, 1, 1) ORDER BY g`.execute(
      store.db,
    );
    assert.deepEqual(
      rows.map((r) => [r.g, r.joined.split('\x1e').sort()]),
      [
        ['a', ['a1\x1fqueued', 'a2\x1fqueued']],
        ['b', ['b1\x1fqueued']],
      ],
    );
  });

  test('containsText finds a needle anywhere, taking % and _ literally', async () => {
    await queue(['abc%_def', 'abcdef', 'xyz']);
    const find = async (needle: string) =>
      (await sql<{ id: string }>`SELECT id FROM ${jobs} WHERE ${store.dialect.containsText(sql.ref('id'), needle)} ORDER BY id`.execute(store.db)).rows.map(
        (r) => r.id,
      );
    assert.deepEqual(await find('%_'), ['abc%_def']);
    assert.deepEqual(await find('cd'), ['abcdef']);
    assert.deepEqual(await find('def'), ['abc%_def', 'abcdef']);
  });

  test('binaryText orders by code point on both stores', async () => {
    await queue(['b', 'B', 'a', 'A', 'é', '-z', 'z']);
    const { rows } = await sql<{ id: string }>`SELECT id FROM ${jobs} ORDER BY ${store.dialect.binaryText(sql.ref('id'))}`.execute(store.db);
    assert.deepEqual(
      rows.map((r) => r.id),
      ['-z', 'A', 'B', 'a', 'b', 'z', 'é'],
    );
  });

  test('inTextArray binds the list as one parameter: one statement text whatever its length', async () => {
    const awkward = ['plain', "it's", 'a,b', '{c}', '"d"', 'e\\f', 'ünï', 'NULL'];
    await queue([...awkward, 'absent-1', 'absent-2']);
    const select = (values: string[]) => sql<{ id: string }>`SELECT id FROM ${jobs} WHERE ${store.dialect.inTextArray('id', values)}`;

    const one = select(['plain']).compile(store.db);
    const many = select(Array.from({ length: 500 }, (_, i) => `v${i}`)).compile(store.db);
    assert.equal(one.sql, many.sql);
    assert.equal(one.parameters.length, 1);
    assert.equal(many.parameters.length, 1);

    const { rows } = await select([...awkward, 'missing']).execute(store.db);
    assert.deepEqual(rows.map((r) => r.id).sort(), [...awkward].sort());
    assert.deepEqual((await select([]).execute(store.db)).rows, []);
  });

  test('claimers running at once each claim a different job, and every job is claimed', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `job-${i}`);
    await queue(ids);
    const claimed = await Promise.all(ids.map(() => store.dialect.writeTransaction(store.db, claimNext)));
    assert.deepEqual([...claimed].sort(), ids);
  });

  test('a failed write transaction leaves nothing behind', async () => {
    await queue(['job-a']);
    await assert.rejects(
      store.dialect.writeTransaction(store.db, async (trx) => {
        await claimNext(trx);
        throw new Error('worker failed');
      }),
      /worker failed/,
    );
    const { rows } = await sql<{ state: string }>`SELECT state FROM ${jobs} WHERE id = 'job-a'`.execute(store.db);
    assert.equal(rows[0].state, 'queued');
  });

  test(
    'PostgreSQL: a claim skips the job another transaction holds, without waiting',
    { skip: STORE !== 'postgres' && 'SQLite runs one write transaction at a time', timeout: 10_000 },
    async () => {
      await queue(['job-1', 'job-2']);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let claimedFirst!: (id: string | null) => void;
      const first = new Promise<string | null>((resolve) => (claimedFirst = resolve));
      const holder = store.dialect.writeTransaction(store.db, async (trx) => {
        claimedFirst(await claimNext(trx));
        await held;
      });
      assert.equal(await first, 'job-1');
      try {
        assert.equal(await store.dialect.writeTransaction(store.db, claimNext), 'job-2');
      } finally {
        release();
        await holder;
      }
    },
  );

  test('callerChangeNotice reaches a listener when its transaction commits, never when it rolls back (PostgreSQL); SQLite needs none', async () => {
    const notice = store.dialect.callerChangeNotice;
    if (STORE === 'sqlite') {
      assert.equal(notice, null);
      return;
    }
    assert.ok(notice);
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.channel));
      await listener.query(`LISTEN ${CALLER_CHANNEL}`);
      await assert.rejects(
        store.transaction(async (trx) => {
          await notice.execute(trx);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      await store.transaction((trx) => notice.execute(trx));
      // A round trip on the listener's own connection delivers whatever was sent before it.
      await listener.query('SELECT 1');
      assert.deepEqual(heard, [CALLER_CHANNEL]);
    } finally {
      await listener.end();
    }
  });

  test(
    'SQLite: a write transaction holds the write lock from its first read',
    { skip: STORE !== 'sqlite' && 'PostgreSQL locks rows, not the database' },
    async () => {
      await queue(['job-1']);
      await store.dialect.writeTransaction(store.db, async (trx) => {
        await sql`SELECT count(*) AS n FROM ${jobs}`.execute(trx);
        // Another connection to the same file: had the transaction begun DEFERRED, after a read it
        // would hold no write lock yet, and this would succeed.
        const other = new SQLite(path.join(server.dataDir, 'folio.sqlite'));
        try {
          other.pragma('busy_timeout = 0');
          assert.throws(() => other.exec('BEGIN IMMEDIATE'), { code: 'SQLITE_BUSY' });
        } finally {
          other.close();
        }
      });
    },
  );
  test('a LIMIT count: a literal on SQLite, from SQL text and from the query builder alike; a parameter on PostgreSQL', async () => {
    await queue(['a', 'b', 'c', 'd']);
    const dialect = dialectOf(store.db);
    const { rows } = await sql<{ id: string }>`SELECT id FROM ${jobs} ORDER BY id LIMIT ${dialect.limitCount(2)} OFFSET ${dialect.limitCount(1)}`.execute(
      store.db,
    );
    assert.deepEqual(
      rows.map((r) => r.id),
      ['b', 'c'],
    );
    const built = store.db.selectFrom('objects').select('id').limit(3).offset(4).compile();
    const literal = STORE === 'sqlite';
    assert.match(built.sql, literal ? /limit 3 offset 4$/ : /limit \$\d+ offset \$\d+$/);
    assert.equal(built.parameters.length, literal ? 0 : 2);
    // Only whole numbers the server computed are ever written into a statement.
    for (const bad of [1.5, -1, Number.NaN, '3; DROP TABLE objects'])
      assert.throws(() => limitCountText(bad), /a LIMIT or OFFSET count must be a whole number/);
  });
});

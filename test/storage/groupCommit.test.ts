/**
 * Write transactions that end in the same turn of the event loop commit together on SQLite, with
 * one fsync (src/storage/sqliteGroupCommit.ts), and each is still its own transaction: one that
 * fails leaves the others whole, and nothing is answered before it is durable. The same behaviour
 * is asked of PostgreSQL, where each transaction commits on its own.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { STORE } from '../helpers/server.js';
import { useServer } from '../helpers/useServer.js';
import { openStore, useStore } from '../helpers/useStore.js';
import { makeSharedPage } from '../helpers/factories.js';
import { sql } from 'kysely';
import { call } from '../helpers/http.js';
import http from 'node:http';
import { LATEST_VERSION } from '../../src/versioning/versions.js';

/**
 * `count` connections opened first, so that requests sent together reach the server together, as
 * under load, rather than one connection's handshake at a time.
 */
function openConnections(url: string, token: string, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: count });
  const send = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = http.request(`${url}${path}`, {
        method,
        agent,
        headers: { authorization: `Bearer ${token}`, 'notion-version': LATEST_VERSION, ...(payload ? { 'content-type': 'application/json' } : {}) },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      });
      request.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

describe('write transactions of one turn', () => {
  const { server, fx } = useServer();
  const store = useStore(server);

  test('commit together, and one that fails is rolled back alone', async () => {
    const run = randomUUID();
    const before = store.commitStats();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        store.transaction(async (trx) => {
          await trx
            .insertInto('settings')
            .values({ key: `group-${run}-${i}`, value: 'first' })
            .execute();
          await trx.updateTable('settings').set({ value: 'second' }).where('key', '=', `group-${run}-${i}`).execute();
          if (i === 5) throw new Error('this one fails after writing');
          return i;
        }),
      ),
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      outcomes.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')),
    );
    const rows = await store.db.selectFrom('settings').select(['key', 'value']).where('key', 'like', `group-${run}-%`).orderBy('key').execute();
    assert.deepEqual(
      rows.map((r) => [r.key, r.value]),
      Array.from({ length: 12 }, (_, i) => i)
        .filter((i) => i !== 5)
        .map((i) => [`group-${run}-${i}`, 'second'])
        .sort(),
    );
    if (STORE === 'sqlite') {
      const after = store.commitStats()!;
      assert.equal(after.transactions - before!.transactions, 12, 'twelve write transactions');
      assert.ok(after.commits - before!.commits < 12, `fewer commits than transactions (${after.commits - before!.commits})`);
    } else assert.equal(store.commitStats(), null);
  });

  test(
    "an error that ends SQLite's whole transaction fails every member of its group: none is answered as kept",
    { skip: STORE === 'sqlite' ? false : 'SQLite only: RAISE(ROLLBACK) in a trigger' },
    async () => {
      const run = randomUUID();
      // On this connection alone: a write of a doomed key ends the whole transaction, as a full disk
      // or an I/O error may, rather than the statement alone.
      await sql
        .raw(
          `CREATE TEMP TRIGGER doom_${run.replaceAll('-', '')} BEFORE INSERT ON settings WHEN new.key = 'doom-${run}' BEGIN SELECT RAISE(ROLLBACK, 'doomed'); END`,
        )
        .execute(store.db);
      try {
        const keys = Array.from({ length: 12 }, (_, i) => (i === 5 ? `doom-${run}` : `member-${run}-${i}`));
        const outcomes = await Promise.allSettled(
          keys.map((key) =>
            store.transaction(async (trx) => {
              await trx.insertInto('settings').values({ key, value: 'first' }).execute();
              await trx.updateTable('settings').set({ value: 'second' }).where('key', '=', key).execute();
            }),
          ),
        );
        const kept = await store.db
          .selectFrom('settings')
          .select('key')
          .where((eb) => eb.or([eb('key', 'like', `member-${run}-%`), eb('key', '=', `doom-${run}`)]))
          .execute();
        const answeredKept = keys.filter((_, i) => outcomes[i]!.status === 'fulfilled');
        // What was answered as kept is exactly what is there: nothing acknowledged was lost with the group.
        assert.deepEqual(new Set(kept.map((r) => r.key)), new Set(answeredKept));
        assert.equal(outcomes[5]!.status, 'rejected');
        const failedWithIt = outcomes.filter((o, i) => i !== 5 && o.status === 'rejected');
        assert.ok(failedWithIt.length > 0, 'members that shared the group with the doomed one failed with it');
        for (const o of failedWithIt) assert.match(String((o as PromiseRejectedResult).reason), /doomed/);
        assert.ok(
          outcomes.slice(6).some((o) => o.status === 'fulfilled'),
          'transactions after the failure commit in a new group',
        );
        // And the connection writes again.
        await store.transaction((trx) =>
          trx
            .insertInto('settings')
            .values({ key: `after-${run}`, value: 'v' })
            .execute(),
        );
        assert.equal((await store.db.selectFrom('settings').select('value').where('key', '=', `after-${run}`).executeTakeFirst())?.value, 'v');
      } finally {
        await sql.raw(`DROP TRIGGER IF EXISTS temp.doom_${run.replaceAll('-', '')}`).execute(store.db);
      }
    },
  );

  test('a read that runs inside an open group answers only once the group is committed', { skip: STORE === 'sqlite' ? false : "SQLite's driver" }, async () => {
    const run = randomUUID();
    const other = await openStore(server);
    try {
      // The write's transaction ends first and leaves the group open; the read, in the same turn, sees its row.
      const write = store.transaction((trx) =>
        trx
          .insertInto('settings')
          .values({ key: `read-${run}`, value: 'v' })
          .execute(),
      );
      const seenElsewhere = store.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', `read-${run}`)
        .executeTakeFirst()
        .then(async (seen) => {
          assert.equal(seen?.value, 'v');
          // Another connection to the file sees only committed rows: had the read answered before
          // the group's commit (due at the end of this turn), it would find nothing here.
          return other.db.selectFrom('settings').select('value').where('key', '=', `read-${run}`).executeTakeFirst();
        });
      await write;
      assert.equal((await seenElsewhere)?.value, 'v');
    } finally {
      await other.close();
    }
  });

  test('concurrent page creations over HTTP are all answered 200 and all kept, in fewer commits', async (t) => {
    const parent = await makeSharedPage(server, fx, 'Group commit parent');
    const metric = async (name: string) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      return line === undefined ? null : Number(line.split(' ')[1]);
    };
    const { send, close } = openConnections(server.url, fx.token, 30);
    t.after(close);
    const create = (title: string) =>
      send('POST', '/v1/pages', { parent: { page_id: parent.id }, properties: { title: { title: [{ text: { content: title } }] } } });
    // The first creation loads the route's modules (file reads between its statements).
    assert.equal((await create('warm-up')).status, 200);
    await Promise.all(Array.from({ length: 30 }, () => send('GET', '/v1/users/me')));
    const transactionsBefore = await metric('folio_store_write_transactions_total');
    const commitsBefore = await metric('folio_store_group_commits_total');
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => create(`grouped ${i}`)));
    assert.deepEqual(
      created.map((r) => r.status),
      created.map(() => 200),
    );
    for (const [i, r] of created.entries()) {
      const page = await call<any>(server.url, 'GET', `/v1/pages/${r.body.id}`, { token: fx.token });
      assert.equal(page.status, 200);
      assert.equal(page.body.properties.title.title[0].plain_text, `grouped ${i}`);
    }
    if (STORE === 'sqlite') {
      const transactions = (await metric('folio_store_write_transactions_total'))! - transactionsBefore!;
      const commits = (await metric('folio_store_group_commits_total'))! - commitsBefore!;
      assert.ok(transactions >= 30, `at least one write transaction per creation (${transactions})`);
      assert.ok(commits < transactions, `the creations shared commits (${commits} for ${transactions})`);
    } else assert.equal(transactionsBefore, null);
  });

  test(
    'when the file fills under concurrent writes, every write answered 200 is kept and the rest are 503',
    { skip: STORE === 'sqlite' ? false : 'SQLite only: PRAGMA max_page_count' },
    async (t) => {
      const db = server.running.core.store.db;
      const parent = await makeSharedPage(server, fx, 'Full file parent');
      const { send, close } = openConnections(server.url, fx.token, 20);
      t.after(close);
      const filler = 'x'.repeat(1900);
      const create = (title: string) =>
        send('POST', '/v1/pages', {
          parent: { page_id: parent.id },
          properties: { title: { title: [{ text: { content: title } }] } },
          children: [{ paragraph: { rich_text: [{ text: { content: filler } }] } }],
        });
      assert.equal((await create('warm-up')).status, 200);
      const acknowledged = new Set<string>(['warm-up']);
      const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(db);
      // The file may not grow past what it holds now: a write that needs a page fails as on a full disk.
      await sql.raw(`PRAGMA max_page_count = ${rows[0].page_count}`).execute(db);
      let refused = 0;
      try {
        for (let batch = 0; batch < 20 && refused === 0; batch++) {
          const titles = Array.from({ length: 20 }, (_, i) => `full ${batch}.${i}`);
          const answers = await Promise.all(titles.map(create));
          for (const [i, answer] of answers.entries()) {
            if (answer.status === 200) acknowledged.add(titles[i]);
            else {
              assert.equal(answer.status, 503, JSON.stringify(answer.body));
              assert.equal(answer.body.code, 'service_unavailable');
              refused++;
            }
          }
        }
        assert.ok(refused > 0, 'the file never filled');
      } finally {
        await sql.raw('PRAGMA max_page_count = 1073741823').execute(db);
      }
      assert.equal((await create('after')).status, 200);
      acknowledged.add('after');
      // Every answered creation is there, and nothing that was refused.
      const kept = await db.selectFrom('objects').select('title').where('parent_id', '=', parent.id).where('object', '=', 'page').execute();
      assert.deepEqual(new Set(kept.map((r) => r.title)), acknowledged);
    },
  );
});

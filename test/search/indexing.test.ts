/**
 * The search index follows `objects` through its triggers (migration 002), whichever code writes:
 * inserts, renames, edits, trash, the linked flag, deletes, pruning of old versions, and the
 * backfill of content written before the migration. Storage level, on SQLite and, with
 * DATABASE_URL, on PostgreSQL.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { STORE } from '../helpers/server.js';
import { useServer } from '../helpers/useServer.js';
import * as initial from '../../src/storage/migrations/001_initial.js';
import * as searchIndex from '../../src/storage/migrations/002_search_index.js';
import { useContentWriter, WORKSPACE } from './helpers.js';

interface Version {
  seq: string;
  title: string;
  in_trash: number;
  removed: boolean;
}

describe('search index maintenance', () => {
  const { server, fx } = useServer();
  const { store, writer } = useContentWriter(server, fx);

  async function versions(objectId: string): Promise<Version[]> {
    const { rows } = await sql<
      Version & { removed: number | boolean }
    >`SELECT ${STORE === 'postgres' ? sql`seq::text` : sql`CAST(seq AS TEXT)`} AS seq, title, in_trash,
      CASE WHEN removed_in IS NULL THEN 0 ELSE 1 END AS removed FROM search_index WHERE object_id = ${objectId}
      ORDER BY CASE WHEN removed_in IS NULL THEN 1 ELSE 0 END, removed_in`.execute(store.db);
    return rows.map((r) => ({ ...r, removed: Number(r.removed) === 1, in_trash: Number(r.in_trash) }));
  }
  const current = async (id: string) => (await versions(id)).filter((v) => !v.removed);

  test('a new page or data source has one current version; blocks and databases none', async () => {
    const page = await writer.page('Fresh page');
    assert.deepEqual(
      (await current(page)).map((v) => v.title),
      ['Fresh page'],
    );
    const { databaseId, dataSourceId } = await writer.dataSource('Fresh source', { type: 'page_id', id: page });
    assert.equal((await current(dataSourceId)).length, 1);
    assert.equal((await versions(databaseId)).length, 0);
    assert.equal((await versions(await writer.block(page, 'text'))).length, 0);
    assert.equal((await versions((await writer.dataSource('Linked', WORKSPACE, { linked: true })).dataSourceId)).length, 0);
  });

  test('a rename or an edit time adds a version and removes the previous one; other edits do not', async () => {
    const page = await writer.page('Before');
    await writer.rename(page, 'After');
    await writer.touch(page);
    const all = await versions(page);
    assert.deepEqual(
      all.map((v) => [v.title, v.removed]),
      [
        ['Before', true],
        ['After', true],
        ['After', false],
      ],
    );
    await store.db.updateTable('objects').set({ is_locked: 1 }).where('id', '=', page).execute();
    assert.equal((await versions(page)).length, 3, 'locking changes neither title nor edit time');
  });

  test('newer edits sort first: seq falls as last_edited_time rises, and ties of a millisecond stay distinct', async () => {
    // Older than anything the writer stamps (its clock starts a day ago).
    const at = new Date(Date.now() - 2 * 86400_000).toISOString();
    const ids = await writer.pages(['Tie one', 'Tie two', 'Tie three'], WORKSPACE);
    for (const id of ids) await store.db.updateTable('objects').set({ last_edited_time: at }).where('id', '=', id).execute();
    const seqs = await Promise.all(ids.map(async (id) => BigInt((await current(id))[0].seq)));
    assert.equal(new Set(seqs).size, 3);
    const newer = await writer.page('Newer');
    assert.ok(BigInt((await current(newer))[0].seq) < seqs[0]);
  });

  test('trash follows on the current version, for the page and its descendants', async () => {
    const parent = await writer.page('Parent');
    const child = await writer.page('Child', { type: 'page_id', id: parent });
    await writer.trash(parent);
    assert.equal((await current(parent))[0].in_trash, 1);
    assert.equal((await current(child))[0].in_trash, 1);
    await writer.trash(parent, false);
    assert.equal((await current(child))[0].in_trash, 0);
  });

  test('marking a data source linked removes it; unmarking brings it back', async () => {
    const { dataSourceId } = await writer.dataSource('Sometimes linked', WORKSPACE);
    const row = await store.db.selectFrom('objects').select('content').where('id', '=', dataSourceId).executeTakeFirstOrThrow();
    const content = JSON.parse(row.content);
    await store.db
      .updateTable('objects')
      .set({ content: JSON.stringify({ ...content, linked: true }) })
      .where('id', '=', dataSourceId)
      .execute();
    assert.equal((await current(dataSourceId)).length, 0);
    await store.db
      .updateTable('objects')
      .set({ content: JSON.stringify(content) })
      .where('id', '=', dataSourceId)
      .execute();
    assert.equal((await current(dataSourceId)).length, 1);
  });

  test('a deleted object keeps no current version', async () => {
    const page = await writer.page('Doomed');
    await store.db.deleteFrom('property_values').where('page_id', '=', page).execute();
    await store.db.deleteFrom('object_ancestors').where('descendant_id', '=', page).execute();
    await store.db.deleteFrom('objects').where('id', '=', page).execute();
    assert.deepEqual(
      (await versions(page)).map((v) => v.removed),
      [true],
    );
  });

  test('versions removed over an hour ago are pruned by later writes', async () => {
    const page = await writer.page('Old name');
    await writer.rename(page, 'New name');
    const old = STORE === 'postgres' ? sql`now() - interval '2 hours'` : sql`'2000-01-01T00:00:00.000Z'`;
    await sql`UPDATE search_index SET removed_time = ${old} WHERE object_id = ${page} AND removed_in IS NOT NULL`.execute(store.db);
    const other = await writer.page('Another');
    // PostgreSQL prunes at most 100 rows per write (a database shared by many runs may hold more).
    for (let i = 0; i < 100 && (await versions(page)).length > 1; i++) await writer.touch(other);
    assert.deepEqual(
      (await versions(page)).map((v) => v.title),
      ['New name'],
    );
    assert.equal((await versions(other)).filter((v) => v.removed).length >= 1, true, 'recent removals stay');
  });

  test('SQLite: the full-text index agrees with its content table after all this', { skip: STORE !== 'sqlite' }, async () => {
    await sql`INSERT INTO search_fts (search_fts, rank) VALUES ('integrity-check', 1)`.execute(store.db);
  });
});

describe('migration 002 indexes content written before it', () => {
  test('pages and unlinked data sources get a current version with their title and trash state', async () => {
    let db: Kysely<any>;
    let cleanup: () => Promise<void>;
    if (STORE === 'postgres') {
      const schema = `search_backfill_${process.pid}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      db = new Kysely({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1, options: `-c search_path=${schema},public` }) }),
      });
      cleanup = async () => {
        await db.destroy();
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      };
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-backfill-'));
      db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'db.sqlite')) }) });
      cleanup = async () => {
        await db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      };
    }
    try {
      await initial.up(db);
      await db.insertInto('workspaces').values({ id: 'w', name: 'w', system_user_id: 'u', created_time: '2025-01-01T00:00:00.000Z' }).execute();
      const base = { workspace_id: 'w', type: null, position: 0, trashed: 0, is_locked: 0, is_archived: 0, created_by: 'u', last_edited_by: 'u' };
      const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
      await db
        .insertInto('objects')
        .values([
          {
            ...base,
            id: 'p1',
            object: 'page',
            parent_type: 'workspace',
            parent_id: null,
            title: 'Older page',
            content: '{}',
            in_trash: 0,
            created_time: at(1),
            last_edited_time: at(1),
          },
          {
            ...base,
            id: 'p2',
            object: 'page',
            parent_type: 'workspace',
            parent_id: null,
            title: 'Newer page',
            content: '{}',
            in_trash: 1,
            created_time: at(2),
            last_edited_time: at(2),
          },
          {
            ...base,
            id: 'd1',
            object: 'database',
            parent_type: 'workspace',
            parent_id: null,
            title: 'Db',
            content: '{}',
            in_trash: 0,
            created_time: at(3),
            last_edited_time: at(3),
          },
          {
            ...base,
            id: 's1',
            object: 'data_source',
            parent_type: 'database_id',
            parent_id: 'd1',
            title: 'Source',
            content: '{}',
            in_trash: 0,
            created_time: at(3),
            last_edited_time: at(3),
          },
          {
            ...base,
            id: 's2',
            object: 'data_source',
            parent_type: 'database_id',
            parent_id: 'd1',
            title: 'Linked',
            content: '{"linked":true}',
            in_trash: 0,
            created_time: at(4),
            last_edited_time: at(4),
          },
          {
            ...base,
            id: 'b1',
            object: 'block',
            parent_type: 'page_id',
            parent_id: 'p1',
            title: '',
            content: '{}',
            in_trash: 0,
            created_time: at(5),
            last_edited_time: at(5),
          },
        ])
        .execute();
      await searchIndex.up(db);
      const { rows } = await sql<{
        object_id: string;
        title: string;
        in_trash: number;
      }>`SELECT object_id, title, in_trash FROM search_index ORDER BY seq`.execute(db);
      assert.deepEqual(
        rows.map((r) => [r.object_id, r.title, Number(r.in_trash)]),
        [
          ['s1', 'Source', 0],
          ['p2', 'Newer page', 1],
          ['p1', 'Older page', 0],
        ],
      );
      if (STORE === 'sqlite') {
        const { rows: found } = await sql<{ rowid: number }>`SELECT rowid FROM search_fts WHERE search_fts MATCH '"page"'`.execute(db);
        assert.equal(found.length, 2);
      }
    } finally {
      await cleanup();
    }
  });
});

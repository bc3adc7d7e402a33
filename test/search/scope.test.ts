/**
 * search_scope (migration 004) is the join of the search index and the ancestor closure kept as
 * a table; the visible-first search plan reads only it. These tests hold it to being exactly that
 * join after every kind of write: new objects, renames and edits (new versions), moves of
 * subtrees, trash, pruning of old versions, and on PostgreSQL a move and an edit of the same
 * object racing in two transactions, in both orders.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { STORE } from '../helpers/server.js';
import { useServer } from '../helpers/useServer.js';
import { openStore } from '../helpers/useStore.js';
import type { Db } from '../../src/storage/db.js';
import { useContentWriter, WORKSPACE } from './helpers.js';

/** Rows of search_scope that differ from the join, both ways, for one workspace; and rows whose version is gone. */
async function scopeDrift(db: Db, workspaceId: string): Promise<{ missing: string[]; extra: string[]; orphans: number }> {
  const key = (r: { ancestor_id: string; seq: string | number | bigint; title: string }) => `${r.ancestor_id} ${String(r.seq)} ${r.title}`;
  const joined = await sql<{ ancestor_id: string; seq: string; title: string }>`
    SELECT a.ancestor_id, CAST(s.seq AS TEXT) AS seq, s.title FROM search_index s JOIN object_ancestors a ON a.descendant_id = s.object_id
    WHERE s.workspace_id = ${workspaceId}`.execute(db);
  const stored = await sql<{ ancestor_id: string; seq: string; title: string }>`
    SELECT sc.ancestor_id, CAST(sc.seq AS TEXT) AS seq, sc.title FROM search_scope sc
    WHERE sc.seq IN (SELECT seq FROM search_index WHERE workspace_id = ${workspaceId})`.execute(db);
  const orphans = await sql<{ n: number }>`
    SELECT count(*) AS n FROM search_scope sc WHERE NOT EXISTS (SELECT 1 FROM search_index s WHERE s.seq = sc.seq)`.execute(db);
  const want = new Set(joined.rows.map(key));
  const have = new Set(stored.rows.map(key));
  return { missing: [...want].filter((k) => !have.has(k)), extra: [...have].filter((k) => !want.has(k)), orphans: Number(orphans.rows[0].n) };
}

describe('search_scope follows the index and the closure', () => {
  const { server, fx } = useServer();
  const { store, writer } = useContentWriter(server, fx);

  const assertExact = async (when: string) => {
    const drift = await scopeDrift(store.db, fx.workspaceId);
    assert.deepEqual(drift, { missing: [], extra: [], orphans: 0 }, when);
  };

  test('after creating, renaming, moving, trashing and pruning', async () => {
    const root = await writer.page('Root');
    const a = await writer.page('Team A', { type: 'page_id', id: root });
    const b = await writer.page('Team B', { type: 'page_id', id: root });
    const children = await writer.pages(['Alpha', 'Beta', 'Gamma', 'Delta'], { type: 'page_id', id: a });
    const grandchild = await writer.page('Deep', { type: 'page_id', id: children[0] });
    const { dataSourceId } = await writer.dataSource('Tasks', { type: 'page_id', id: b });
    await writer.page('Row one', { type: 'data_source_id', id: dataSourceId });
    await writer.block(children[1], 'a paragraph');
    await assertExact('after creating');

    for (const id of [a, children[0], grandchild, dataSourceId]) await writer.rename(id, `Renamed ${id.slice(0, 4)}`);
    await writer.touch(children[2]);
    await assertExact('after new versions');

    await writer.move(children[0], { type: 'page_id', id: b });
    await writer.move(a, WORKSPACE);
    await writer.move(b, { type: 'page_id', id: a });
    await assertExact('after moves');

    await writer.trash(b);
    await writer.trash(b, false);
    await assertExact('after trash and restore');

    // Versions removed long ago are pruned by the next write; their scope rows go with them.
    await sql`UPDATE search_index SET removed_time = ${'2000-01-01T00:00:00.000Z'} WHERE removed_in IS NOT NULL AND workspace_id = ${fx.workspaceId}`.execute(
      store.db,
    );
    const pruned = await sql<{ n: number }>`SELECT count(*) AS n FROM search_index WHERE removed_in IS NOT NULL AND workspace_id = ${fx.workspaceId}`.execute(
      store.db,
    );
    assert.ok(Number(pruned.rows[0].n) >= 5, 'old versions exist before pruning');
    await writer.rename(grandchild, 'Pruning trigger');
    const left = await sql<{ n: number }>`SELECT count(*) AS n FROM search_index WHERE removed_in IS NOT NULL AND workspace_id = ${fx.workspaceId}`.execute(
      store.db,
    );
    assert.equal(Number(left.rows[0].n), 1, 'only the version just replaced is left');
    await assertExact('after pruning');
  });

  test('a move and an edit of the same object in concurrent transactions, in both orders', { skip: STORE !== 'postgres' }, async () => {
    const other = await openStore(server);
    try {
      const left = await writer.page('Left');
      const right = await writer.page('Right');
      const folder = await writer.page('Folder', { type: 'page_id', id: left });
      const item = await writer.page('Item', { type: 'page_id', id: folder });

      const race = async (first: 'edit' | 'move', target: string, title: string) => {
        let firstDone!: () => void;
        const firstWrote = new Promise<void>((resolve) => (firstDone = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        const edit = (db: Db) => sql`UPDATE objects SET title = ${title}, last_edited_time = ${writer.tick()} WHERE id = ${item}`.execute(db);
        const move = (db: Db) => writer.move(folder, { type: 'page_id', id: target }, db);
        const holder = store.transaction(async (trx) => {
          await (first === 'edit' ? edit(trx) : move(trx));
          firstDone();
          await released;
        });
        await firstWrote;
        const waiter = other.transaction(async (trx) => {
          await (first === 'edit' ? move(trx) : edit(trx));
        });
        // Give the second transaction time to reach the row the first one holds.
        await new Promise((resolve) => setTimeout(resolve, 300));
        release();
        await Promise.all([holder, waiter]);
      };

      await race('edit', right, 'Item edited during a move');
      await assertExact('edit first, then move');
      await race('move', left, 'Item edited again during a move');
      await assertExact('move first, then edit');
    } finally {
      await other.close();
    }
  });
});

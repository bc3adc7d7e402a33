/**
 * Migration 010 gives every database that has no view the table view "Default view" of its first
 * data source. Run here on the test server's store (both stores) after taking one database's views
 * away below the API, as a database made before the migration had none.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { useStore } from '../helpers/useStore.js';
import { makeSharedPage } from '../helpers/factories.js';
import { giveDatabasesDefaultViews } from '../../src/storage/migrations/010_views.js';
import { createSource } from '../query/helpers.js';

describe('migration 010: default views for existing databases', () => {
  const { server, fx } = useServer();
  const store = useStore(server);

  test('a database without views gets "Default view" of its first data source; others keep theirs', async () => {
    const client = new Client({ auth: fx.token, baseUrl: server.url, logger: () => {} });
    const page = await makeSharedPage(server, fx);
    const older = await createSource(server, fx.token, page.id, 'Older', { Name: { title: {} } });
    await client.dataSources.create({ parent: { type: 'database_id', database_id: older.databaseId }, properties: { Name: { title: {} } } } as any);
    const other = await createSource(server, fx.token, page.id, 'Other', { Name: { title: {} } });
    const kept = (await client.views.list({ database_id: other.databaseId })).results.map((v) => v.id);

    await store.db.deleteFrom('database_views').where('database_id', '=', older.databaseId).execute();
    assert.deepEqual((await client.views.list({ database_id: older.databaseId })).results, []);
    await giveDatabasesDefaultViews(store.db);

    const [made, ...more] = (await client.views.list({ database_id: older.databaseId })).results;
    assert.deepEqual(more, []);
    const view = (await client.views.retrieve({ view_id: made.id })) as any;
    assert.equal(view.name, 'Default view');
    assert.equal(view.type, 'table');
    assert.equal(view.data_source_id, older.id);
    assert.deepEqual(
      (await client.views.list({ database_id: other.databaseId })).results.map((v) => v.id),
      kept,
    );
  });
});

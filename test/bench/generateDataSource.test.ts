/**
 * The query benchmark's data (scripts/generateDataSource.ts) writes pages below the API, so this
 * holds it to the API: a generated page reads back through GET /v1/pages as the values it was
 * made from, and POST /v1/pages with the same values writes the same rows (JSON, typed columns,
 * items), whatever columns the store's value rows gain later. Runs on SQLite, and on PostgreSQL
 * when DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDataSource, PROJECTS, TASKS, type DataSourceManifest } from '../../scripts/generateDataSource.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openStore } from '../helpers/useStore.js';
import { call } from '../helpers/http.js';
import type { Store } from '../../src/storage/createStore.js';

type Json = Record<string, any>;

describe('scripts/generateDataSource.ts', () => {
  let dataDir: string;
  let manifest: DataSourceManifest;
  let server: TestServer;
  let store: Store;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-generate-data-source-'));
    manifest = await generateDataSource({ pages: 300, related: 30, dataDir, out: path.join(dataDir, 'manifest.json'), seed: 7, batch: 100 });
    server = await startTestServer({ FOLIO_DATA_DIR: dataDir });
    store = await openStore(server);
  });
  after(async () => {
    await store?.close();
    await server?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const rowsOf = async (pageId: string) => {
    const values = await store.db.selectFrom('property_values').selectAll().where('page_id', '=', pageId).orderBy('property_id').execute();
    const items = await store.db.selectFrom('property_value_items').select(['property_id', 'item']).where('page_id', '=', pageId).execute();
    return {
      values: values.map(({ page_id: _, ...row }) => row),
      items: items.map((i) => `${i.property_id} ${i.item}`).sort(),
    };
  };

  const taskPages = async () =>
    store.db.selectFrom('objects').selectAll().where('parent_id', '=', manifest.tasks.dataSourceId).where('object', '=', 'page').orderBy('position').execute();

  const trashedProjects = async () =>
    new Set(
      (await store.db.selectFrom('objects').select('id').where('parent_id', '=', manifest.projects.dataSourceId).where('in_trash', '=', 1).execute()).map(
        (r) => r.id,
      ),
    );

  test('counts what it made', async () => {
    const pages = await taskPages();
    assert.equal(pages.length, 300);
    assert.equal(pages.filter((p) => p.in_trash === 1).length, manifest.counts.trashed);
    assert.ok(manifest.counts.trashed > 0 && manifest.counts.relatedTrashed > 0, 'some pages of each data source are in the trash');
    assert.deepEqual(Object.keys(manifest.tasks.properties).sort(), Object.values(TASKS).sort());
  });

  test('a generated page reads back through the API: every property, relations and rollups without pages in the trash', async () => {
    const trashed = await trashedProjects();
    const ids = (p: Json) => (p.relation as Json[]).map((r) => r.id as string);
    let checked = 0;
    for (const row of await taskPages()) {
      if (row.in_trash === 1) continue;
      const { status, body } = await call<Json>(server.url, 'GET', `/v1/pages/${row.id}`, { token: manifest.connection.token });
      assert.equal(status, 200, JSON.stringify(body));
      const properties = body.properties as Record<string, Json>;
      assert.deepEqual(Object.keys(properties).sort(), Object.values(TASKS).sort());
      // Shown rounded down to the minute, as the service does (src/presenters/time.ts).
      assert.equal(properties[TASKS.createdTime].created_time, `${row.created_time.slice(0, 16)}:00.000Z`);
      const stored = JSON.parse(
        (
          await store.db
            .selectFrom('property_values')
            .select('value')
            .where('page_id', '=', row.id)
            .where('property_id', '=', manifest.tasks.properties[TASKS.relation].id)
            .executeTakeFirstOrThrow()
        ).value,
      ) as Json;
      const related = ids(stored).filter((id) => !trashed.has(id));
      assert.deepEqual(ids(properties[TASKS.relation]), related);
      const categories = await Promise.all(
        related.map(async (id) => {
          const { body: project } = await call<Json>(server.url, 'GET', `/v1/pages/${id}`, { token: manifest.connection.token });
          return project.properties[PROJECTS.select].select?.name ?? null;
        }),
      );
      const rollup = properties[TASKS.rollup].rollup as Json;
      assert.equal(rollup.type, 'array');
      assert.deepEqual(
        (rollup.array as Json[]).map((v) => v.select?.name ?? null),
        categories,
      );
      if (++checked === 25) break;
    }
  });

  test('POST /v1/pages with the values of a generated page writes the same rows', async () => {
    const trashed = await trashedProjects();
    const schema = manifest.tasks.properties;
    let checked = 0;
    for (const row of await taskPages()) {
      if (row.in_trash === 1) continue;
      const generated = await rowsOf(row.id);
      const stored = new Map(generated.values.map((v) => [v.property_id, JSON.parse(v.value) as Json]));
      const value = (name: string) => stored.get(schema[name].id)![schema[name].type];
      // A related page in the trash leaves the relation as the API reads it, so it cannot be sent back.
      if ((value(TASKS.relation) as Json[]).some((r) => trashed.has(r.id))) continue;
      const text = (items: Json[]) => items.map((i) => ({ text: { content: i.plain_text } }));
      const date = value(TASKS.date) as Json | null;
      const properties = {
        [TASKS.title]: { title: text(value(TASKS.title)) },
        [TASKS.richText]: { rich_text: text(value(TASKS.richText)) },
        [TASKS.number]: { number: value(TASKS.number) },
        [TASKS.checkbox]: { checkbox: value(TASKS.checkbox) },
        [TASKS.select]: { select: value(TASKS.select) && { name: value(TASKS.select).name } },
        [TASKS.multiSelect]: { multi_select: (value(TASKS.multiSelect) as Json[]).map((o) => ({ name: o.name })) },
        [TASKS.status]: { status: { name: value(TASKS.status).name } },
        [TASKS.date]: { date: date && { start: date.start, end: date.end, ...(date.time_zone ? { time_zone: date.time_zone } : {}) } },
        [TASKS.people]: { people: (value(TASKS.people) as Json[]).map((u) => ({ id: u.id })) },
        [TASKS.relation]: { relation: (value(TASKS.relation) as Json[]).map((r) => ({ id: r.id })) },
      };
      const { status, body } = await call<Json>(server.url, 'POST', '/v1/pages', {
        token: manifest.connection.token,
        body: { parent: { data_source_id: manifest.tasks.dataSourceId }, properties },
      });
      assert.equal(status, 200, JSON.stringify(body));
      const written = await rowsOf(body.id as string);
      // The creation time is the request's; everything else must match byte for byte.
      const created = schema[TASKS.createdTime].id;
      const withoutCreated = (rows: Json[]) => rows.filter((r) => r.property_id !== created);
      assert.deepEqual(withoutCreated(written.values), withoutCreated(generated.values));
      assert.deepEqual(written.items, generated.items);
      const shape = (rows: Json[]) => rows.filter((r) => r.property_id === created).map((r) => Object.keys(r).filter((k) => r[k] !== null));
      assert.deepEqual(shape(written.values), shape(generated.values));
      if (++checked === 25) break;
    }
    assert.equal(checked, 25);
  });
});

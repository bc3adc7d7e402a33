/**
 * Issue 3 acceptance: through the official SDK at 2025-09-03 and 2026-03-11, and through raw HTTP
 * at 2022-06-28, create a database with every property type, create 50 pages with values of
 * every type, read them back, update them, trash and restore them; the SDK's isFull* helpers
 * accept every object returned.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, collectPaginatedAPI, isFullBlock, isFullDataSource, isFullDatabase, isFullPage } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { everyTypeSchema, ok, text } from './helpers.js';

type Json = Record<string, any>;
const PAGES = 50;

/** The SDK's type guards, called without narrowing the loosely typed responses. */
function accepts(guard: (o: any) => boolean, object: unknown): void {
  assert.ok(guard(object), `${guard.name} refused ${JSON.stringify(object).slice(0, 200)}`);
}

function valuesFor(i: number, people: string[], tasks: string[]): Json {
  return {
    Name: { title: text(`Row ${i}`) },
    Notes: { rich_text: text(`note ${i}`) },
    Price: { number: i * 1.5 },
    Kind: { select: { name: i % 2 ? 'A' : 'B' } },
    Tags: { multi_select: [{ name: 'x' }, { name: `t${i % 5}` }] },
    Stage: { status: { name: ['Not started', 'In progress', 'Done'][i % 3] } },
    Due: { date: { start: `2024-01-${String((i % 28) + 1).padStart(2, '0')}` } },
    Owners: { people: [{ id: people[i % people.length] }] },
    Attachments: { files: [{ name: `f${i}.txt`, external: { url: `https://example.com/f${i}.txt` } }] },
    Done: { checkbox: i % 2 === 0 },
    Site: { url: `https://example.com/${i}` },
    Mail: { email: `row${i}@example.com` },
    Phone: { phone_number: `+1 555 ${1000 + i}` },
    Tasks: { relation: [{ id: tasks[i % tasks.length] }, { id: tasks[(i + 1) % tasks.length] }] },
    Verified: { verification: i % 4 === 0 ? { state: 'verified' } : { state: 'unverified' } },
  };
}

function checkRow(page: Json, i: number, tasks: Json[]): void {
  const p = page.properties;
  assert.equal(p.Name.title[0].plain_text, `Row ${i}`);
  assert.equal(p.Notes.rich_text[0].plain_text, `note ${i}`);
  assert.equal(p.Price.number, i * 1.5);
  assert.equal(p.Kind.select.name, i % 2 ? 'A' : 'B');
  assert.deepEqual(
    p.Tags.multi_select.map((o: Json) => o.name),
    ['x', `t${i % 5}`],
  );
  assert.equal(p.Stage.status.name, ['Not started', 'In progress', 'Done'][i % 3]);
  assert.equal(p.Done.checkbox, i % 2 === 0);
  assert.equal(p.Mail.email, `row${i}@example.com`);
  assert.equal(p.Double.formula.number, i * 3);
  const points = [i % tasks.length, (i + 1) % tasks.length].map((k) => tasks[k].points).reduce((a, b) => a + b, 0);
  assert.equal(p.Points.rollup.number, points);
  assert.equal(p.Ref.unique_id.prefix, 'REF');
}

describe('acceptance: every property type, 50 pages, three ways', () => {
  const { server, fx } = useServer();
  let people: string[];
  before(async () => {
    const bea = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name: 'Bea', email: 'bea@example.com' });
    people = [fx.user.id, bea.id];
  });

  for (const notionVersion of ['2025-09-03', '2026-03-11']) {
    test(`official SDK at ${notionVersion}`, async () => {
      const root = await makeSharedPage(server, fx, `SDK ${notionVersion}`);
      const client = new Client({ auth: fx.token, baseUrl: server.url, notionVersion, logger: () => {} });
      const taskDb: any = await client.databases.create({
        parent: { type: 'page_id', page_id: root.id },
        title: text('Tasks') as any,
        initial_data_source: { properties: { Task: { title: {} }, Points: { number: {} } } },
      });
      accepts(isFullDatabase, taskDb);
      const taskSource = taskDb.data_sources[0].id;
      const tasks: Json[] = [];
      for (let k = 0; k < 4; k++) {
        const task: any = await client.pages.create({
          parent: { data_source_id: taskSource },
          properties: { Task: { title: text(`task ${k}`) }, Points: { number: k + 1 } } as any,
        });
        accepts(isFullPage, task);
        tasks.push({ id: task.id, points: k + 1 });
      }
      const database: any = await client.databases.create({
        parent: { type: 'page_id', page_id: root.id },
        title: text('Every type') as any,
        initial_data_source: { properties: everyTypeSchema(taskSource) as any },
      });
      accepts(isFullDatabase, database);
      const source: any = await client.dataSources.retrieve({ data_source_id: database.data_sources[0].id });
      accepts(isFullDataSource, source);
      assert.equal(Object.keys(source.properties).length, 22);

      const created: Json[] = [];
      for (let i = 0; i < PAGES; i++) {
        const page: any = await client.pages.create({
          parent: { data_source_id: source.id },
          properties: valuesFor(
            i,
            people,
            tasks.map((t) => t.id),
          ) as any,
          children: i === 0 ? ([{ paragraph: { rich_text: text('first') } }] as any) : undefined,
        });
        accepts(isFullPage, page);
        created.push(page);
      }
      for (const [i, page] of created.entries()) {
        const read: any = await client.pages.retrieve({ page_id: page.id });
        accepts(isFullPage, read);
        checkRow(read, i, tasks);
        assert.equal(read.properties.Ref.unique_id.number, i + 1);
      }
      // Search shows each page exactly as retrieving it does (at the newest version its values
      // are written from their stored text, src/presenters/jsonSplice.ts), also for lists too
      // long to show whole.
      const long: any = await client.pages.create({
        parent: { data_source_id: source.id },
        properties: {
          Name: { title: Array.from({ length: 30 }, (_, k) => text(`Long row part ${k} `)[0]) },
          Notes: { rich_text: Array.from({ length: 30 }, (_, k) => text(`n${k}`)[0]) },
        } as any,
      });
      const found = await collectPaginatedAPI(client.search, { query: `Row`, filter: { property: 'object', value: 'page' } as any });
      for (const page of [...created, long]) {
        const hit = found.find((r: any) => r.id === page.id);
        assert.ok(hit, `search finds ${page.id}`);
        assert.deepEqual(hit, await client.pages.retrieve({ page_id: page.id }));
      }
      assert.equal((found.find((r: any) => r.id === long.id) as any).properties.Notes.rich_text.length, 25);
      await client.pages.update({ page_id: long.id, in_trash: true });

      const blocks = await collectPaginatedAPI(client.blocks.children.list, { block_id: created[0].id });
      assert.equal(blocks.length, 1);
      assert.ok(blocks.every((b: any) => isFullBlock(b)));
      const item: any = await client.pages.properties.retrieve({ page_id: created[1].id, property_id: source.properties.Tasks.id });
      assert.equal(item.results.length, 2);

      for (const [i, page] of created.entries()) {
        const updated: any = await client.pages.update({
          page_id: page.id,
          properties: { Price: { number: i }, Notes: { rich_text: text(`edited ${i}`) } } as any,
        });
        accepts(isFullPage, updated);
        assert.equal(updated.properties.Double.formula.number, i * 2);
        assert.equal(updated.properties.Notes.rich_text[0].plain_text, `edited ${i}`);
      }
      // A change on a related page reaches the rollups.
      await client.pages.update({ page_id: tasks[0].id, properties: { Points: { number: 100 } } as any });
      const withRollup: any = await client.pages.retrieve({ page_id: created[0].id });
      assert.equal(withRollup.properties.Points.rollup.number, 100 + tasks[1].points);

      for (const page of created.slice(0, 10)) {
        const trashed: any = await client.pages.update({ page_id: page.id, in_trash: true });
        accepts(isFullPage, trashed);
        assert.equal(trashed.in_trash, true);
        const restored: any = await client.pages.update({ page_id: page.id, in_trash: false });
        assert.equal(restored.in_trash, false);
      }
      const trashedDb: any = await client.databases.update({ database_id: database.id, in_trash: true });
      accepts(isFullDatabase, trashedDb);
      assert.equal(trashedDb.in_trash, true);
      assert.equal(((await client.pages.retrieve({ page_id: created[5].id })) as any).in_trash, true);
      const restoredDb: any = await client.databases.update({ database_id: database.id, in_trash: false });
      assert.equal(restoredDb.in_trash, false);
      assert.equal(((await client.pages.retrieve({ page_id: created[5].id })) as any).in_trash, false);
      const updatedSource: any = await client.dataSources.update({ data_source_id: source.id, properties: { Extra: { checkbox: {} } } as any });
      accepts(isFullDataSource, updatedSource);
      if (notionVersion === '2025-09-03') assert.equal(restoredDb.archived, false);
      else assert.equal(restoredDb.archived, undefined);
    });
  }

  test('raw HTTP at 2022-06-28', async () => {
    const root = await makeSharedPage(server, fx, 'Raw 2022');
    const v = '2022-06-28';
    const taskDb = await ok(
      server,
      fx,
      'POST',
      '/v1/databases',
      { parent: { type: 'page_id', page_id: root.id }, title: text('Tasks'), properties: { Task: { title: {} }, Points: { number: {} } } },
      v,
    );
    accepts(isFullDatabase, taskDb as any);
    assert.equal(taskDb.properties.Points.type, 'number');
    const tasks: Json[] = [];
    for (let k = 0; k < 4; k++) {
      const task = await ok(
        server,
        fx,
        'POST',
        '/v1/pages',
        { parent: { database_id: taskDb.id }, properties: { Task: { title: text(`task ${k}`) }, Points: { number: k + 1 } } },
        v,
      );
      tasks.push({ id: task.id, points: k + 1 });
    }
    const schema = everyTypeSchema('');
    schema.Tasks = { relation: { database_id: taskDb.id, type: 'dual_property', dual_property: {} } };
    const database = await ok(
      server,
      fx,
      'POST',
      '/v1/databases',
      { parent: { type: 'page_id', page_id: root.id }, title: text('Every type'), properties: schema },
      v,
    );
    accepts(isFullDatabase, database as any);
    assert.equal(Object.keys(database.properties).length, 22);
    assert.equal(database.properties.Tasks.relation.type, 'dual_property');
    assert.equal(database.properties.Tasks.relation.data_source_id, undefined);
    const created: Json[] = [];
    for (let i = 0; i < PAGES; i++) {
      const page = await ok(
        server,
        fx,
        'POST',
        '/v1/pages',
        {
          parent: { database_id: database.id },
          properties: valuesFor(
            i,
            people,
            tasks.map((t) => t.id),
          ),
        },
        v,
      );
      accepts(isFullPage, page as any);
      assert.deepEqual(page.parent, { type: 'database_id', database_id: database.id });
      created.push(page);
    }
    for (const [i, page] of created.entries()) {
      const read = await ok(server, fx, 'GET', `/v1/pages/${page.id}`, undefined, v);
      accepts(isFullPage, read);
      checkRow(read, i, tasks);
      assert.equal(read.archived, false);
    }
    for (const [i, page] of created.entries()) {
      const updated = await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { properties: { Price: { number: i } } }, v);
      accepts(isFullPage, updated);
      assert.equal(updated.properties.Double.formula.number, i * 2);
    }
    for (const page of created.slice(0, 10)) {
      assert.equal((await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { archived: true }, v)).archived, true);
      assert.equal((await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { archived: false }, v)).archived, false);
    }
    const reread = await ok(server, fx, 'GET', `/v1/databases/${database.id}`, undefined, v);
    accepts(isFullDatabase, reread as any);
    assert.equal(reread.properties.Name.type, 'title');
  });
});

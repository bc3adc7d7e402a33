/**
 * Kept query answers (src/storage/answerCache.ts): the same data-source query asked again with nothing
 * written since is answered from the answer kept, and anything written — through this server,
 * through another instance on the same store — is seen by the very next query. Answers that move
 * with the clock alone are never kept, and no caller is sent an answer kept for another.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { addConnection, admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { ok, text } from '../content/helpers.js';

type Json = Record<string, any>;

const DAY_ONE = '2031-04-05T10:00:00.000Z';
const DAY_TWO = '2031-04-06T10:00:00.000Z';

/** How many query answers this server sent from those kept, read from /metrics. */
async function keptCount(server: TestServer): Promise<number> {
  const body = await (await fetch(`${server.url}/metrics`)).text();
  const line = body.split('\n').find((l) => l.startsWith('folio_query_answers_total{answered="kept"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** The raw text of a query's answer, as the client receives it. */
async function queryText(server: TestServer, token: string, path: string, body: unknown, version?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'notion-version': version ?? '2025-09-03', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('kept query answers', () => {
  let one: TestServer;
  let other: TestServer;
  let fx: Fixture;
  let databaseId: string;
  let source: string;
  const rows: Record<string, string> = {};
  const queryPath = () => `/v1/data_sources/${source}/query`;
  const blocked = { filter: { property: 'Status', select: { equals: 'Blocked' } } };
  const namesOf = (answer: string) => (JSON.parse(answer).results as Json[]).map((p) => p.properties.Name.title.map((t: Json) => t.plain_text).join('')).sort();

  before(async () => {
    one = await startTestServer({ FOLIO_TEST_CLOCK: '1' });
    // A second instance on the same store: the same SQLite file, or the same PostgreSQL database.
    other = await startTestServer({ FOLIO_DATA_DIR: one.dataDir });
    await admin(one, 'POST', '/clock', { now: DAY_ONE });
    fx = await makeWorkspace(one);
    const root = await makeSharedPage(one, fx);
    const db = await ok(one, fx, 'POST', '/v1/databases', {
      parent: { page_id: root.id },
      title: text('Tasks'),
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Status: { select: { options: [{ name: 'Blocked' }, { name: 'Done' }] } },
          Due: { date: {} },
          Attachments: { files: {} },
        },
      },
    });
    databaseId = db.id;
    source = db.data_sources[0].id;
    for (const [name, status, due] of [
      ['alpha', 'Blocked', '2031-04-05'],
      ['beta', 'Done', '2031-04-06'],
      ['gamma', 'Blocked', '2031-04-06'],
    ]) {
      const page = await ok(one, fx, 'POST', '/v1/pages', {
        parent: { data_source_id: source },
        properties: {
          Name: { title: text(name) },
          Status: { select: { name: status } },
          Due: { date: { start: due } },
        },
      });
      rows[name] = page.id;
    }
    // An uploaded file on alpha: stored as a reference, made a signed link as each answer leaves.
    const upload = await ok(one, fx, 'POST', '/v1/file_uploads', { filename: 'notes.txt', content_type: 'text/plain' });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('some notes')], { type: 'text/plain' }), 'notes.txt');
    const sent = await fetch(`${one.url}/v1/file_uploads/${upload.id}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.token}`, 'Notion-Version': '2025-09-03' },
      body: form,
    });
    assert.equal(sent.status, 200, await sent.text());
    await ok(one, fx, 'PATCH', `/v1/pages/${rows.alpha}`, { properties: { Attachments: { files: [{ file_upload: { id: upload.id } }] } } });
  });
  after(async () => {
    await other?.close();
    await one?.close();
  });

  test('the same query asked again with nothing written is answered byte for byte from the kept answer', async () => {
    const first = await queryText(one, fx.token, queryPath(), blocked);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(namesOf(first.text), ['alpha', 'gamma']);
    const before = await keptCount(one);
    // On PostgreSQL the stamp is the cluster's: a commit elsewhere (autovacuum's statistics) may
    // move it between two asks, so a few asks are allowed to find the kept answer.
    let again = first;
    for (let ask = 0; ask < 5 && (await keptCount(one)) === before; ask++) again = await queryText(one, fx.token, queryPath(), blocked);
    assert.ok((await keptCount(one)) > before, 'a repeated query with nothing written is answered from the kept answer');
    assert.equal(again.text, first.text);
  });

  test('a write through this server is seen by the very next query', async () => {
    await queryText(one, fx.token, queryPath(), blocked);
    await queryText(one, fx.token, queryPath(), blocked);
    await ok(one, fx, 'PATCH', `/v1/pages/${rows.beta}`, { properties: { Status: { select: { name: 'Blocked' } } } });
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), blocked)).text), ['alpha', 'beta', 'gamma']);
    await ok(one, fx, 'PATCH', `/v1/pages/${rows.beta}`, { in_trash: true });
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), blocked)).text), ['alpha', 'gamma']);
    await ok(one, fx, 'PATCH', `/v1/pages/${rows.beta}`, { in_trash: false, properties: { Status: { select: { name: 'Done' } } } });
  });

  test('a write through another instance on the same store is seen by the very next query', async () => {
    await queryText(one, fx.token, queryPath(), blocked);
    await queryText(one, fx.token, queryPath(), blocked);
    await ok(other, fx, 'PATCH', `/v1/pages/${rows.alpha}`, { properties: { Name: { title: text('alpha, renamed') } } });
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), blocked)).text), ['alpha, renamed', 'gamma']);
    await ok(other, fx, 'PATCH', `/v1/pages/${rows.alpha}`, { properties: { Name: { title: text('alpha') } } });
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), blocked)).text), ['alpha', 'gamma']);
  });

  test('no caller is sent an answer kept for another: connection, version, query string and body each count', async () => {
    const kept = (await queryText(one, fx.token, queryPath(), blocked)).text;
    await queryText(one, fx.token, queryPath(), blocked);
    // A connection the data source is not shared with: the 404 of an object that does not exist.
    const stranger = await addConnection(one, fx.workspaceId, ['read_content']);
    const refused = await queryText(one, stranger.token, queryPath(), blocked);
    assert.equal(refused.status, 404, refused.text);
    assert.equal(JSON.parse(refused.text).code, 'object_not_found');
    // Shared with it too: its own answer, equal in content.
    await admin(one, 'POST', `/connections/${stranger.id}/grants`, { object_id: databaseId });
    const shared = await queryText(one, stranger.token, queryPath(), blocked);
    assert.deepEqual(namesOf(shared.text), namesOf(kept));
    // filter_properties: only the named property comes back.
    const only = await queryText(one, fx.token, `${queryPath()}?filter_properties=title`, blocked);
    assert.equal(only.status, 200, only.text);
    for (const page of JSON.parse(only.text).results) assert.deepEqual(Object.keys(page.properties), ['Name']);
    // Another body: another answer.
    const done = await queryText(one, fx.token, queryPath(), { filter: { property: 'Status', select: { equals: 'Done' } } });
    assert.deepEqual(namesOf(done.text), ['beta']);
    // An older version: the database's query, answered in that version's shape.
    const old = await queryText(one, fx.token, `/v1/databases/${databaseId}/query`, blocked, '2022-06-28');
    assert.equal(old.status, 200, old.text);
    const oldPages = JSON.parse(old.text).results as Json[];
    assert.equal(oldPages.length, 2);
    for (const page of oldPages) assert.equal(page.parent.type, 'database_id');
    assert.notEqual(old.text, kept);
  });

  test('a relative date is read as of the clock, and such answers are never kept', async () => {
    const today = { filter: { property: 'Due', date: { equals: 'today' } } };
    await admin(one, 'POST', '/clock', { now: DAY_ONE });
    const before = await keptCount(one);
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), today)).text), ['alpha']);
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), today)).text), ['alpha']);
    await admin(one, 'POST', '/clock', { now: DAY_TWO });
    assert.deepEqual(namesOf((await queryText(one, fx.token, queryPath(), today)).text), ['beta', 'gamma']);
    assert.equal(await keptCount(one), before, 'no answer to a relative date was sent from those kept');
  });

  test('the links of hosted files in a kept answer are signed as it leaves, as of the clock', async () => {
    const expiries = (answer: string) =>
      (JSON.parse(answer).results as Json[]).flatMap((p) =>
        p.properties.Attachments.files.map((f: Json) => [f.file.expiry_time, new URL(f.file.url).searchParams.get('expires')]),
      );
    await admin(one, 'POST', '/clock', { now: DAY_ONE });
    const first = await queryText(one, fx.token, queryPath(), blocked);
    const dayOneExpiry = Date.parse('2031-04-05T11:00:00.000Z') / 1000;
    assert.deepEqual(expiries(first.text), [['2031-04-05T11:00:00.000Z', String(dayOneExpiry)]]);
    await admin(one, 'POST', '/clock', { now: DAY_TWO });
    const before = await keptCount(one);
    let again = await queryText(one, fx.token, queryPath(), blocked);
    for (let ask = 0; ask < 5 && (await keptCount(one)) === before; ask++) again = await queryText(one, fx.token, queryPath(), blocked);
    assert.ok((await keptCount(one)) > before, 'moving the clock writes nothing: the answer is kept');
    assert.deepEqual(expiries(again.text), [['2031-04-06T11:00:00.000Z', String(dayOneExpiry + 86_400)]]);
  });

  test('FOLIO_QUERY_CACHE_MB=0 keeps nothing', async () => {
    const off = await startTestServer({ FOLIO_DATA_DIR: one.dataDir, FOLIO_QUERY_CACHE_MB: '0' });
    try {
      // Without the test clock, signed links move with the real time: compared without them.
      const unsigned = (answer: string) => answer.replace(/"url":"[^"]*\/files\/[^"]*","expiry_time":"[^"]*"/g, '"url":…');
      const first = await queryText(off, fx.token, queryPath(), blocked);
      assert.match(first.text, /\/files\//);
      for (let ask = 0; ask < 3; ask++) assert.equal(unsigned((await queryText(off, fx.token, queryPath(), blocked)).text), unsigned(first.text));
      assert.equal(await keptCount(off), 0);
    } finally {
      await off.close();
    }
  });
});

test('FOLIO_QUERY_CACHE_MB is a whole number of megabytes', async () => {
  const { loadConfig } = await import('../../src/config.js');
  assert.equal(loadConfig({}).queryCacheBytes, 32 * 1024 * 1024);
  assert.equal(loadConfig({ FOLIO_QUERY_CACHE_MB: '0' }).queryCacheBytes, 0);
  assert.throws(() => loadConfig({ FOLIO_QUERY_CACHE_MB: 'lots' }), /FOLIO_QUERY_CACHE_MB/);
});

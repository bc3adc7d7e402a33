/**
 * At the newest version search writes each page as JSON text (presentPageText, with stored values
 * as stored) where retrieving a page builds an object for JSON.stringify (presentPage). The two
 * must be the same bytes: every page found by search holds the retrieved page's body verbatim,
 * for values of every type, long lists, icons and covers, pages outside databases, and property
 * names a JavaScript object orders first (array indexes), quotes and non-ASCII.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { everyTypeSchema, ok, text } from './helpers.js';

type Json = Record<string, any>;

const { server, fx } = useServer();

async function rawText(method: string, path: string, body?: unknown): Promise<string> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.token}`, 'notion-version': LATEST_VERSION, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const textBody = await response.text();
  assert.equal(response.status, 200, textBody);
  return textBody;
}

test('search writes every page byte for byte as retrieving it does', async () => {
  const root = await makeSharedPage(server, fx, 'Text root');
  const tasksDb = await ok(server, fx, 'POST', '/v1/databases', {
    parent: { type: 'page_id', page_id: root.id },
    title: text('Textcheck tasks'),
    initial_data_source: { properties: { Task: { title: {} }, Points: { number: {} } } },
  });
  const tasksSource = tasksDb.data_sources[0].id;
  const tasks: string[] = [];
  for (let i = 0; i < 30; i++) {
    const task = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: tasksSource },
      properties: { Task: { title: text(`Textcheck task ${i}`) }, Points: { number: i } },
    });
    tasks.push(task.id);
  }
  const schema = {
    ...everyTypeSchema(tasksSource),
    'Quote "q" — é': { url: {} },
  };
  const database = await ok(server, fx, 'POST', '/v1/databases', {
    parent: { type: 'page_id', page_id: root.id },
    title: text('Textcheck rows'),
    icon: { type: 'emoji', emoji: '📚' },
    initial_data_source: { properties: schema },
  });
  const sourceId = database.data_sources[0].id;
  // Added after the others, so they come last in the schema; an object puts such names first.
  await ok(server, fx, 'PATCH', `/v1/data_sources/${sourceId}`, { properties: { '7': { checkbox: {} }, '10': { rich_text: {} } } });

  const pages: string[] = [];
  const plain = (i: number): Json => ({
    Name: { title: text(`Textcheck row ${i} — “quoted” \\ ${'é'.repeat(i)}`) },
    Notes: { rich_text: text(`note ${i}\nline two\u2028`) },
    Price: { number: i * 1.25 },
    Kind: { select: { name: i % 2 ? 'A' : 'B' } },
    Tags: { multi_select: [{ name: 'x' }, { name: 'y' }] },
    Stage: { status: { name: 'In progress' } },
    Due: { date: { start: '2024-02-03', end: '2024-02-05' } },
    Owners: { people: [{ id: fx.user.id }] },
    Attachments: { files: [{ name: `f${i}.txt`, external: { url: `https://example.com/f${i}.txt` } }] },
    Done: { checkbox: i % 2 === 0 },
    Site: { url: `https://example.com/${i}` },
    Mail: { email: `row${i}@example.com` },
    Phone: { phone_number: `+1 555 ${1000 + i}` },
    Tasks: { relation: tasks.slice(0, i % 2 ? 2 : 30).map((id) => ({ id })) },
    Verified: { verification: { state: 'verified' } },
  });
  for (let i = 0; i < 4; i++) {
    const special: Json = i === 0 ? {} : { '7': { checkbox: true }, '10': { rich_text: text('ten') }, 'Quote "q" — é': { url: 'https://q.example' } };
    const properties = { ...plain(i) };
    for (const [name, value] of Object.entries(special)) Object.defineProperty(properties, name, { value, enumerable: true });
    const page = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { data_source_id: sourceId },
      properties,
      ...(i === 2 ? { icon: { type: 'emoji', emoji: '🧪' }, cover: { type: 'external', external: { url: 'https://example.com/c.png' } } } : {}),
    });
    pages.push(page.id);
  }
  // 30 title parts: longer than a page shows (25), so that value is cut, not written as stored.
  const long = await ok(server, fx, 'POST', '/v1/pages', {
    parent: { data_source_id: sourceId },
    properties: { Name: { title: Array.from({ length: 30 }, (_, k) => text(`Textcheck long ${k} `)[0]) } },
  });
  pages.push(long.id);
  const child = await ok(server, fx, 'POST', '/v1/pages', {
    parent: { page_id: root.id },
    properties: { title: { title: text('Textcheck child — outside any database') } },
    icon: { type: 'external', external: { url: 'https://example.com/i.png' } },
  });
  pages.push(child.id);

  const found = await rawText('POST', '/v1/search', { query: 'Textcheck', filter: { property: 'object', value: 'page' }, page_size: 100 });
  const results = JSON.parse(found).results as Json[];
  assert.equal(results.length, pages.length + tasks.length);
  for (const id of pages) {
    const retrieved = await rawText('GET', `/v1/pages/${id}`);
    const at = found.indexOf(`{"object":"page","id":"${id}"`);
    const written = found.slice(at, found.indexOf(',"public_url":null}', at) + ',"public_url":null}'.length);
    assert.equal(written, retrieved, `search writes page ${id} as retrieving it does`);
  }
  const first = JSON.parse(await rawText('GET', `/v1/pages/${pages[1]}`));
  assert.equal(first.properties['7'].checkbox, true);
  assert.equal(first.properties.Tasks.relation.length, 2);
  const cut = JSON.parse(await rawText('GET', `/v1/pages/${pages[0]}`));
  assert.equal(cut.properties.Tasks.relation.length, 25);
  assert.equal(cut.properties.Tasks.has_more, true);
});

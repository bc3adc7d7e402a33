/**
 * Custom emojis (FACTS.md §10.5): the operator adds and removes them through the admin plane; any
 * token lists its workspace's through the SDK (`customEmojis.list`), filtered by exact name and
 * paginated; the image is served at the emoji's URL; page icons, block icons and mentions resolve
 * the id against the workspace's emojis and show the stored name and URL.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { useStore } from '../helpers/useStore.js';
import { STORE } from '../helpers/server.js';
import fs from 'node:fs';
import path from 'node:path';

const quiet = () => {};
type Json = Record<string, any>;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

describe('custom emojis', () => {
  const { server, fx } = useServer();
  const store = useStore(server);
  const notion = (token = fx.token) => new Client({ auth: token, baseUrl: server.url, logger: quiet });
  const addEmoji = (name: string, workspaceId = fx.workspaceId) =>
    admin(server, 'POST', `/workspaces/${workspaceId}/custom_emojis`, { name, content_type: 'image/png', data_base64: PNG });
  const adminCall = (method: string, path: string, body?: unknown) =>
    call<Json>(server.url, method, `/admin/v1${path}`, { token: server.adminToken, version: null, body });

  test('the operator adds one; it is listed, served, and removed', async () => {
    const emoji = await addEmoji('party_parrot');
    assert.deepEqual(Object.keys(emoji).sort(), ['id', 'name', 'url']);
    assert.equal(emoji.name, 'party_parrot');
    const image = await fetch(emoji.url);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), Buffer.from(PNG, 'base64'));

    const listed = await notion().customEmojis.list({ name: 'party_parrot' });
    assert.deepEqual(listed, { object: 'list', type: 'custom_emoji', custom_emoji: {}, results: [emoji], has_more: false, next_cursor: null });
    assert.deepEqual((await notion().customEmojis.list({ name: 'party' })).results, [], 'the name filter matches exactly');

    const removed = await admin(server, 'DELETE', `/custom_emojis/${emoji.id}`);
    assert.deepEqual(removed, { object: 'custom_emoji', id: emoji.id, deleted: true });
    assert.equal((await fetch(emoji.url)).status, 404);
    assert.deepEqual((await notion().customEmojis.list({ name: 'party_parrot' })).results, []);
    assert.equal((await adminCall('DELETE', `/custom_emojis/${emoji.id}`)).status, 404);
  });

  test('pagination in name order, only the caller’s workspace, any capability', async () => {
    const ws = await makeWorkspace(server, { name: 'Emoji land' });
    for (const name of ['e_c', 'e_a', 'e_d', 'e_b', 'e_e']) await addEmoji(name, ws.workspaceId);
    await addEmoji('elsewhere');
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await notion(ws.token).customEmojis.list({ page_size: 2, start_cursor: cursor });
      names.push(...page.results.map((e) => e.name));
      cursor = page.next_cursor ?? undefined;
      assert.equal(page.has_more, cursor !== undefined);
      pages++;
    } while (cursor);
    assert.deepEqual(names, ['e_a', 'e_b', 'e_c', 'e_d', 'e_e']);
    assert.equal(pages, 3);
    const bare = await addConnection(server, ws.workspaceId, []);
    assert.equal((await notion(bare.token).customEmojis.list({})).results.length, 5);
    const noToken = await call<Json>(server.url, 'GET', '/v1/custom_emojis');
    assert.equal(noToken.status, 401);
    const bad = await call<Json>(server.url, 'GET', '/v1/custom_emojis?page_size=101', { token: ws.token });
    assert.deepEqual([bad.status, bad.body.code], [400, 'validation_error']);
    const badCursor = await call<Json>(server.url, 'GET', '/v1/custom_emojis?start_cursor=nope', { token: ws.token });
    assert.deepEqual([badCursor.status, badCursor.body.code], [400, 'validation_error']);
  });

  test('the operator’s input is checked: name, type, bytes, size, uniqueness, workspace', async () => {
    const post = (body: Json, workspaceId = fx.workspaceId) => adminCall('POST', `/workspaces/${workspaceId}/custom_emojis`, body);
    const cases: [Json, RegExp][] = [
      [{ name: 'Bad Name', content_type: 'image/png', data_base64: PNG }, /name/],
      [{ name: 'ok', content_type: 'image/svg+xml', data_base64: PNG }, /content_type/],
      [{ name: 'ok', content_type: 'text/plain', data_base64: PNG }, /content_type/],
      [{ name: 'ok', content_type: 'image/jpeg', data_base64: PNG }, /data_base64.*image\/jpeg/],
      [{ name: 'ok', content_type: 'image/png', data_base64: Buffer.from('not an image').toString('base64') }, /data_base64/],
      [{ name: 'ok', content_type: 'image/png', data_base64: '***' }, /data_base64/],
      [{ name: 'ok', content_type: 'image/png', data_base64: Buffer.alloc(300 * 1024).toString('base64') }, /data_base64/],
      [{ name: 'ok', content_type: 'image/png' }, /data_base64/],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      assert.deepEqual([res.status, res.body.code], [400, 'validation_error'], JSON.stringify(res.body));
      assert.match(res.body.message, field);
    }
    await addEmoji('taken');
    const twice = await post({ name: 'taken', content_type: 'image/png', data_base64: PNG });
    assert.deepEqual([twice.status, twice.body.code], [400, 'validation_error']);
    assert.match(twice.body.message, /body\.name/);
    const other = await makeWorkspace(server);
    assert.equal((await post({ name: 'taken', content_type: 'image/png', data_base64: PNG }, other.workspaceId)).status, 200, 'names are per workspace');
    const missing = await post({ name: 'x', content_type: 'image/png', data_base64: PNG }, '0f0e0d0c-0b0a-4998-8776-655443322110');
    assert.equal(missing.status, 404);
  });

  test('page icons, block icons and mentions resolve the id to the stored emoji', async () => {
    const emoji = await addEmoji('folio_logo');
    const root = await makeSharedPage(server, fx, 'Emoji use');
    const given = { type: 'custom_emoji', custom_emoji: { id: emoji.id.replace(/-/g, ''), name: 'made-up', url: 'https://example.com/x.png' } };
    const page = (await notion().pages.create({ parent: { page_id: root.id }, icon: given as any, properties: {} })) as Json;
    assert.deepEqual(page.icon, { type: 'custom_emoji', custom_emoji: emoji });
    const updated = (await notion().pages.update({ page_id: root.id, icon: { custom_emoji: { id: emoji.id } } as any })) as Json;
    assert.deepEqual(updated.icon.custom_emoji, emoji);

    const { results } = await notion().blocks.children.append({
      block_id: root.id,
      children: [
        { callout: { rich_text: [], icon: { custom_emoji: { id: emoji.id } } as any } },
        { paragraph: { rich_text: [{ type: 'mention', mention: { type: 'custom_emoji', custom_emoji: { id: emoji.id } } } as any] } },
      ],
    });
    const [callout, paragraph] = results as Json[];
    assert.deepEqual(callout.callout.icon, { type: 'custom_emoji', custom_emoji: emoji });
    assert.deepEqual(paragraph.paragraph.rich_text[0].mention, { type: 'custom_emoji', custom_emoji: emoji });
    assert.equal(paragraph.paragraph.rich_text[0].plain_text, ':folio_logo:');

    const foreign = await addEmoji('foreign', (await makeWorkspace(server)).workspaceId);
    for (const id of [foreign.id, '0f0e0d0c-0b0a-4998-8776-655443322110']) {
      try {
        await notion().pages.update({ page_id: root.id, icon: { custom_emoji: { id } } as any });
        assert.fail('an unknown emoji must be refused');
      } catch (error) {
        assert.ok(APIResponseError.isAPIResponseError(error));
        assert.equal(error.status, 400);
        assert.equal(error.code, 'validation_error');
        assert.match(error.message, /icon\.custom_emoji\.id/);
      }
    }
    const mention = await call<Json>(server.url, 'PATCH', `/v1/blocks/${paragraph.id}`, {
      token: fx.token,
      body: { paragraph: { rich_text: [{ mention: { custom_emoji: { id: foreign.id } } }] } },
    });
    assert.deepEqual([mention.status, mention.body.code], [400, 'validation_error']);
    assert.match(mention.body.message, /custom_emoji\.id/);
  });

  test('the image bytes go with the emoji, and with its workspace', async () => {
    const stored = async (key: string) =>
      STORE === 'postgres'
        ? (await store.db.selectFrom('file_chunks').select('key').where('key', '=', key).execute()).length > 0
        : fs.existsSync(path.join(server.dataDir, 'files', key));
    const keyOf = async (id: string) => (await store.db.selectFrom('custom_emojis').select('file_key').where('id', '=', id).executeTakeFirstOrThrow()).file_key;
    const one = await addEmoji('short_lived');
    const oneKey = await keyOf(one.id);
    assert.equal(await stored(oneKey), true);
    await admin(server, 'DELETE', `/custom_emojis/${one.id}`);
    assert.equal(await stored(oneKey), false);

    const doomed = await makeWorkspace(server, { name: 'Doomed' });
    const two = await addEmoji('doomed', doomed.workspaceId);
    const twoKey = await keyOf(two.id);
    assert.equal(await stored(twoKey), true);
    await admin(server, 'DELETE', `/workspaces/${doomed.workspaceId}`);
    assert.equal(await stored(twoKey), false);
    assert.equal((await fetch(two.url)).status, 404);
  });
});

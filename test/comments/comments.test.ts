/**
 * Issue 25 item 1: comments through the official SDK and raw HTTP — discussions and replies,
 * the flat oldest-first listing and its pagination, update, delete (and a discussion ending with
 * its last comment), display names, attachments read back through their signed links.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, LogLevel } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok, text } from '../content/helpers.js';
import { blobOf, download, PNG, sha256 } from '../fileUploads/helpers.js';
import { API_VERSIONS } from '../../src/versioning/versions.js';

type Json = Record<string, any>;
const quiet = { logLevel: LogLevel.ERROR, logger: () => undefined };

describe('comments through the SDK', () => {
  const { server, fx } = useServer();
  const sdk = () => new Client({ auth: fx.token, baseUrl: server.url, ...quiet });

  test('a comment on a page opens a discussion; a reply joins it; both list oldest first', async () => {
    const page = await makeSharedPage(server, fx);
    const first = (await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text('First thought') as any })) as Json;
    assert.equal(first.object, 'comment');
    assert.deepEqual(first.parent, { type: 'page_id', page_id: page.id });
    assert.equal(first.created_by.object, 'user');
    assert.equal(first.rich_text[0].plain_text, 'First thought');
    assert.deepEqual(first.rich_text[0].annotations, { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' });
    assert.deepEqual(first.display_name, { type: 'integration', resolved_name: 'Test integration' });
    assert.deepEqual(first.attachments, []);
    assert.match(first.created_time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);

    const reply = (await sdk().comments.create({ discussion_id: first.discussion_id, rich_text: text('A reply') as any })) as Json;
    assert.equal(reply.discussion_id, first.discussion_id);
    assert.deepEqual(reply.parent, first.parent);

    const other = (await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text('Another thread') as any })) as Json;
    assert.notEqual(other.discussion_id, first.discussion_id);

    const listed = await sdk().comments.list({ block_id: page.id });
    assert.equal(listed.object, 'list');
    assert.equal(listed.type, 'comment');
    assert.deepEqual(listed.comment, {});
    assert.equal(listed.has_more, false);
    assert.deepEqual(
      listed.results.map((c) => c.id),
      [first.id, reply.id, other.id],
    );
    assert.deepEqual(listed.results[0], first);

    // The bot user is the connection's own: users.me says so.
    const me = await sdk().users.me({});
    assert.equal(first.created_by.id, me.id);
  });

  test('a comment on a block has a block parent, and lists under that block only', async () => {
    const page = await makeSharedPage(server, fx);
    const { results } = await sdk().blocks.children.append({ block_id: page.id, children: [{ paragraph: { rich_text: text('para') as any } }] });
    const blockId = results[0].id;
    const onBlock = (await sdk().comments.create({ parent: { block_id: blockId }, rich_text: text('on the block') as any })) as Json;
    assert.deepEqual(onBlock.parent, { type: 'block_id', block_id: blockId });
    await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text('on the page') as any });
    assert.deepEqual(
      (await sdk().comments.list({ block_id: blockId })).results.map((c) => c.id),
      [onBlock.id],
    );
    assert.equal((await sdk().comments.list({ block_id: page.id })).results.length, 1);
    // A page named as block_id is a page: its comment's parent says so.
    const viaBlockId = (await sdk().comments.create({ parent: { block_id: page.id }, rich_text: text('page as block') as any })) as Json;
    assert.deepEqual(viaBlockId.parent, { type: 'page_id', page_id: page.id });
  });

  test('pagination: page_size, next_cursor, and the SDK helper walk every comment once, in order', async () => {
    const page = await makeSharedPage(server, fx);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const c = await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text(`c${i}`) as any });
      ids.push(c.id);
    }
    const first = await sdk().comments.list({ block_id: page.id, page_size: 3 });
    assert.equal(first.results.length, 3);
    assert.equal(first.has_more, true);
    assert.ok(first.next_cursor);
    const second = await sdk().comments.list({ block_id: page.id, page_size: 3, start_cursor: first.next_cursor! });
    assert.deepEqual(
      second.results.map((c) => c.id),
      ids.slice(3, 6),
    );
    const all = await collectPaginatedAPI(sdk().comments.list, { block_id: page.id, page_size: 2 });
    assert.deepEqual(
      all.map((c) => c.id),
      ids,
    );
    // A cursor of another listing is refused.
    const other = await makeSharedPage(server, fx);
    const res = await call<Json>(server.url, 'GET', `/v1/comments?block_id=${other.id}&start_cursor=${first.next_cursor}`, { token: fx.token });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /query\.start_cursor/);
    const big = await call<Json>(server.url, 'GET', `/v1/comments?block_id=${page.id}&page_size=101`, { token: fx.token });
    assert.equal(big.status, 400);
    assert.match(big.body.message, /page_size/);
  });

  test('retrieve, update and delete; deleting the last comment ends the discussion', async () => {
    const page = await makeSharedPage(server, fx);
    const c = (await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text('draft') as any })) as Json;
    assert.deepEqual(await sdk().comments.retrieve({ comment_id: c.id }), c);

    const updated = (await sdk().comments.update({ comment_id: c.id, rich_text: [{ text: { content: 'final' }, annotations: { bold: true } }] })) as Json;
    assert.equal(updated.id, c.id);
    assert.equal(updated.rich_text[0].plain_text, 'final');
    assert.equal(updated.rich_text[0].annotations.bold, true);
    assert.equal(updated.discussion_id, c.discussion_id);
    assert.deepEqual(await sdk().comments.retrieve({ comment_id: c.id }), updated);

    const reply = (await sdk().comments.create({ discussion_id: c.discussion_id, rich_text: text('reply') as any })) as Json;
    const deleted = (await sdk().comments.delete({ comment_id: c.id })) as Json;
    assert.deepEqual(deleted, updated);
    await assert.rejects(
      sdk().comments.retrieve({ comment_id: c.id }),
      (e: unknown) => APIResponseError.isAPIResponseError(e) && e.code === APIErrorCode.ObjectNotFound,
    );
    // The discussion lives on in its reply…
    const again = (await sdk().comments.create({ discussion_id: c.discussion_id, rich_text: text('still here') as any })) as Json;
    assert.equal(again.discussion_id, c.discussion_id);
    await sdk().comments.delete({ comment_id: reply.id });
    await sdk().comments.delete({ comment_id: again.id });
    // …and ends with its last comment.
    const gone = await call<Json>(server.url, 'POST', '/v1/comments', {
      token: fx.token,
      body: { discussion_id: c.discussion_id, rich_text: text('too late') },
    });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.code, 'object_not_found');
    assert.match(gone.body.message, new RegExp(`discussion with ID: ${c.discussion_id}`));
    assert.deepEqual((await sdk().comments.list({ block_id: page.id })).results, []);
  });

  test('display_name: integration by default, the person, or a custom name', async () => {
    const page = await makeSharedPage(server, fx);
    const asUser = (await sdk().comments.create({ parent: { page_id: page.id }, rich_text: text('u') as any, display_name: { type: 'user' } })) as Json;
    assert.deepEqual(asUser.display_name, { type: 'user', resolved_name: 'Ada Lovelace' });
    const custom = (await sdk().comments.create({
      parent: { page_id: page.id },
      rich_text: text('c') as any,
      display_name: { type: 'custom', custom: { name: 'Release bot' } },
    })) as Json;
    assert.deepEqual(custom.display_name, { type: 'custom', resolved_name: 'Release bot' });
    const explicit = (await sdk().comments.create({
      parent: { page_id: page.id },
      rich_text: text('i') as any,
      display_name: { type: 'integration' },
    })) as Json;
    assert.deepEqual(explicit.display_name, { type: 'integration', resolved_name: 'Test integration' });
    const empty = await call<Json>(server.url, 'POST', '/v1/comments', {
      token: fx.token,
      body: { parent: { page_id: page.id }, rich_text: text('x'), display_name: { type: 'custom', custom: { name: '' } } },
    });
    assert.equal(empty.status, 400);
    assert.match(empty.body.message, /body\.display_name/);
  });

  test('attachments: an uploaded file is attached and read back through its signed link', async () => {
    const page = await makeSharedPage(server, fx);
    const upload = await sdk().fileUploads.create({ filename: 'dot.png' });
    await sdk().fileUploads.send({ file_upload_id: upload.id, file: { filename: 'dot.png', data: blobOf(PNG, 'image/png') } });
    const doc = await sdk().fileUploads.create({ filename: 'notes.txt' });
    await sdk().fileUploads.send({ file_upload_id: doc.id, file: { filename: 'notes.txt', data: blobOf(Buffer.from('hello'), 'text/plain') } });
    const c = (await sdk().comments.create({
      parent: { page_id: page.id },
      rich_text: text('see attached') as any,
      attachments: [{ file_upload_id: upload.id }, { file_upload_id: doc.id, type: 'file_upload' }],
    })) as Json;
    assert.equal(c.attachments.length, 2);
    assert.equal(c.attachments[0].category, 'image');
    assert.equal(c.attachments[1].category, 'productivity');
    const { url, expiry_time } = c.attachments[0].file;
    assert.ok(url.startsWith(`${server.url}/files/${upload.id}/dot.png?`), url);
    assert.ok(Date.parse(expiry_time) > Date.now());
    const got = await download(((await sdk().comments.retrieve({ comment_id: c.id })) as Json).attachments[0].file.url);
    assert.equal(got.status, 200);
    assert.equal(sha256(got.bytes), sha256(PNG));
    // Attached: the upload no longer expires.
    assert.equal((await sdk().fileUploads.retrieve({ file_upload_id: upload.id })).expiry_time, null);
  });

  test('markdown is accepted as the body, for create and update', async () => {
    const page = await makeSharedPage(server, fx);
    const c = (await sdk().comments.create({ parent: { page_id: page.id }, markdown: 'plain words' })) as Json;
    assert.equal(c.rich_text.map((r: Json) => r.plain_text).join(''), 'plain words');
    const u = (await sdk().comments.update({ comment_id: c.id, markdown: 'other words' })) as Json;
    assert.equal(u.rich_text.map((r: Json) => r.plain_text).join(''), 'other words');
    // Inline markdown becomes annotated rich text and mentions (src/domain/markdown/inline.ts); block syntax stays text.
    const rich = (await sdk().comments.create({
      parent: { page_id: page.id },
      markdown: `**bold** and $x^2$ for <mention-user url="${fx.user.id}"/>`,
    })) as Json;
    assert.deepEqual(
      rich.rich_text.map((r: Json) => [r.type, r.plain_text, r.annotations.bold]),
      [
        ['text', 'bold', true],
        ['text', ' and ', false],
        ['equation', 'x^2', false],
        ['text', ' for ', false],
        ['mention', '@Ada Lovelace', false],
      ],
    );
    const heading = (await sdk().comments.create({ parent: { page_id: page.id }, markdown: '# not a heading' })) as Json;
    assert.deepEqual(
      heading.rich_text.map((r: Json) => r.plain_text),
      ['# not a heading'],
    );
  });

  test('raw HTTP: ids without dashes, a mention resolved to its name', async () => {
    const page = await makeSharedPage(server, fx, 'Roadmap');
    const body = await ok(server, fx, 'POST', '/v1/comments', {
      parent: { type: 'page_id', page_id: page.id.replace(/-/g, '') },
      rich_text: [
        { type: 'mention', mention: { type: 'page', page: { id: page.id } } },
        { type: 'text', text: { content: ' is due' } },
      ],
    });
    assert.deepEqual(body.parent, { type: 'page_id', page_id: page.id });
    assert.equal(body.rich_text.map((r: Json) => r.plain_text).join(''), 'Roadmap is due');
    const got = await ok(server, fx, 'GET', `/v1/comments/${body.id.replace(/-/g, '')}`);
    assert.equal(got.id, body.id);
    const listed = await ok(server, fx, 'GET', `/v1/comments?block_id=${page.id.replace(/-/g, '')}`);
    assert.deepEqual(
      listed.results.map((c: Json) => c.id),
      [body.id],
    );
  });
});

describe('comments at every version', () => {
  const { server, fx } = useServer();

  test('create, list, retrieve, update and delete answer the same comment shape at each version', async () => {
    const page = await makeSharedPage(server, fx);
    for (const version of API_VERSIONS) {
      const at = (method: string, path: string, body?: unknown) => call<Json>(server.url, method, path, { token: fx.token, version, body });
      const made = await at('POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text(`at ${version}`) });
      assert.equal(made.status, 200, `${version}: ${JSON.stringify(made.body)}`);
      assert.deepEqual(Object.keys(made.body).sort(), [
        'attachments',
        'created_by',
        'created_time',
        'discussion_id',
        'display_name',
        'id',
        'last_edited_time',
        'object',
        'parent',
        'rich_text',
      ]);
      assert.equal(made.body.rich_text[0].plain_text, `at ${version}`);
      assert.deepEqual((await at('GET', `/v1/comments/${made.body.id}`)).body, made.body);
      const listed = await at('GET', `/v1/comments?block_id=${page.id}`);
      assert.deepEqual(listed.body.results.at(-1), made.body);
      assert.equal((await at('PATCH', `/v1/comments/${made.body.id}`, { rich_text: text('edited') })).body.rich_text[0].plain_text, 'edited');
    }
    // Each version's comment was appended after the last: one listing, oldest first.
    const all = await call<Json>(server.url, 'GET', `/v1/comments?block_id=${page.id}`, { token: fx.token });
    assert.equal(all.body.results.length, API_VERSIONS.length);
  });
});

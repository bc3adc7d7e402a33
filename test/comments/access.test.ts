/**
 * Issue 25 item 1: what comments refuse — the comment capabilities (set through the admin plane),
 * unshared objects answered exactly as missing ones, other connections' comments, bodies that
 * give both or neither target or text, bad attachments — and comments following their page or
 * block to the trash and back.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';
import { expectValidation, text } from '../content/helpers.js';
import { blobOf } from '../fileUploads/helpers.js';

type Json = Record<string, any>;

const ALL = ['read_content', 'update_content', 'insert_content', 'read_comments', 'insert_comments'];

async function api(server: TestServer, token: string, method: string, path: string, body?: unknown): Promise<HttpResult<Json>> {
  return call<Json>(server.url, method, path, { token, body });
}

async function created(server: TestServer, token: string, body: Json): Promise<Json> {
  const res = await api(server, token, 'POST', '/v1/comments', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The same answer, but for its request id and the id it names (each names the id it was asked about). */
function sameAnswer(a: HttpResult<Json>, b: HttpResult<Json>): void {
  assert.equal(a.status, 404, JSON.stringify(a.body));
  assert.equal(b.status, 404, JSON.stringify(b.body));
  const anyId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const shape = ({ request_id: _id, ...rest }: Json) => ({ ...rest, message: String(rest.message).replace(anyId, '<id>') });
  assert.deepEqual(shape(a.body), shape(b.body));
  assert.equal(a.body.code, 'object_not_found');
}

/** A missing id shown as the caller wrote another: same length, same form. */
const missingLike = (id: string) => `${id.slice(0, -12)}000000000000`;

describe('comments: capabilities', () => {
  const { server, fx } = useServer();

  async function connectionWith(capabilities: string[], pageId: string): Promise<Json> {
    const connection = await addConnection(server, fx.workspaceId, capabilities);
    await admin(server, 'POST', `/connections/${connection.id}/grants`, { object_id: pageId });
    return connection;
  }

  test('read_comments is needed to list and retrieve; insert_comments to create, update and delete', async () => {
    const page = await makeSharedPage(server, fx);
    const mine = await created(server, fx.token, { parent: { page_id: page.id }, rich_text: text('hello') });
    const noComments = await connectionWith(['read_content', 'insert_content'], page.id);
    for (const [method, path, body] of [
      ['GET', `/v1/comments?block_id=${page.id}`],
      ['GET', `/v1/comments/${mine.id}`],
      ['POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('x') }],
      ['PATCH', `/v1/comments/${mine.id}`, { rich_text: text('x') }],
      ['DELETE', `/v1/comments/${mine.id}`],
    ] as const) {
      const res = await api(server, noComments.token, method, path, body);
      assert.equal(res.status, 403, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'restricted_resource');
    }
    // Reading alone: the list and the comment, but no writing.
    const reader = await connectionWith(['read_content', 'read_comments'], page.id);
    assert.equal((await api(server, reader.token, 'GET', `/v1/comments?block_id=${page.id}`)).body.results.length, 1);
    assert.equal((await api(server, reader.token, 'GET', `/v1/comments/${mine.id}`)).body.id, mine.id);
    assert.equal((await api(server, reader.token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('x') })).status, 403);
  });

  test('insert without read: writes are answered with {object, id} only', async () => {
    const page = await makeSharedPage(server, fx);
    const writer = await connectionWith(['read_content', 'insert_comments'], page.id);
    const res = await api(server, writer.token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('blind') });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'object']);
    assert.equal(res.body.object, 'comment');
    const updated = await api(server, writer.token, 'PATCH', `/v1/comments/${res.body.id}`, { rich_text: text('seen') });
    assert.deepEqual(updated.body, { object: 'comment', id: res.body.id });
    // The comment is there, as the full connection reads it.
    const read = await api(server, fx.token, 'GET', `/v1/comments/${res.body.id}`);
    assert.equal(read.body.rich_text[0].plain_text, 'seen');
    const deleted = await api(server, writer.token, 'DELETE', `/v1/comments/${res.body.id}`);
    assert.deepEqual(deleted.body, { object: 'comment', id: res.body.id });
  });

  test('the comment capabilities are set and cleared through the admin plane', async () => {
    const page = await makeSharedPage(server, fx);
    const connection = await connectionWith(['read_content'], page.id);
    const list = () => api(server, connection.token, 'GET', `/v1/comments?block_id=${page.id}`);
    assert.equal((await list()).status, 403);
    const changed = await admin(server, 'PATCH', `/connections/${connection.id}`, { capabilities: ['read_content', 'read_comments', 'insert_comments'] });
    assert.ok(changed.capabilities.includes('read_comments') && changed.capabilities.includes('insert_comments'), JSON.stringify(changed));
    assert.equal((await list()).status, 200);
    assert.equal((await api(server, connection.token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('now I can') })).status, 200);
    await admin(server, 'PATCH', `/connections/${connection.id}`, { capabilities: ['read_content'] });
    assert.equal((await list()).status, 403);
    const bad = await call<Json>(server.url, 'PATCH', `/admin/v1/connections/${connection.id}`, {
      token: server.adminToken,
      version: null,
      body: { capabilities: ['write_comments'] },
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
  });
});

describe('comments: sharing and ownership', () => {
  const { server, fx } = useServer();

  test('a page or block not shared is answered exactly as a missing one', async () => {
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
    const missing = missingLike(hidden.id);
    for (const key of ['page_id', 'block_id']) {
      sameAnswer(
        await api(server, fx.token, 'POST', '/v1/comments', { parent: { [key]: hidden.id }, rich_text: text('x') }),
        await api(server, fx.token, 'POST', '/v1/comments', { parent: { [key]: missing }, rich_text: text('x') }),
      );
    }
    sameAnswer(
      await api(server, fx.token, 'GET', `/v1/comments?block_id=${hidden.id}`),
      await api(server, fx.token, 'GET', `/v1/comments?block_id=${missing}`),
    );
  });

  test('comments on a page no longer shared: not found, as a missing comment or discussion', async () => {
    const page = await makeSharedPage(server, fx);
    const c = await created(server, fx.token, { parent: { page_id: page.id }, rich_text: text('soon hidden') });
    await admin(server, 'DELETE', `/connections/${fx.connection.id}/grants/${page.id}`);
    const missing = missingLike(c.id);
    sameAnswer(await api(server, fx.token, 'GET', `/v1/comments/${c.id}`), await api(server, fx.token, 'GET', `/v1/comments/${missing}`));
    sameAnswer(
      await api(server, fx.token, 'PATCH', `/v1/comments/${c.id}`, { rich_text: text('x') }),
      await api(server, fx.token, 'PATCH', `/v1/comments/${missing}`, { rich_text: text('x') }),
    );
    sameAnswer(await api(server, fx.token, 'DELETE', `/v1/comments/${c.id}`), await api(server, fx.token, 'DELETE', `/v1/comments/${missing}`));
    const missingDiscussion = missingLike(c.discussion_id);
    sameAnswer(
      await api(server, fx.token, 'POST', '/v1/comments', { discussion_id: c.discussion_id, rich_text: text('x') }),
      await api(server, fx.token, 'POST', '/v1/comments', { discussion_id: missingDiscussion, rich_text: text('x') }),
    );
  });

  test("another connection's comment: readable, but updating or deleting it is not found", async () => {
    const page = await makeSharedPage(server, fx);
    const other = await addConnection(server, fx.workspaceId, ALL);
    await admin(server, 'POST', `/connections/${other.id}/grants`, { object_id: page.id });
    const theirs = await created(server, other.token, { parent: { page_id: page.id }, rich_text: text('theirs') });
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${theirs.id}`)).body.id, theirs.id);
    const missing = missingLike(theirs.id);
    sameAnswer(
      await api(server, fx.token, 'PATCH', `/v1/comments/${theirs.id}`, { rich_text: text('mine now') }),
      await api(server, fx.token, 'PATCH', `/v1/comments/${missing}`, { rich_text: text('mine now') }),
    );
    sameAnswer(await api(server, fx.token, 'DELETE', `/v1/comments/${theirs.id}`), await api(server, fx.token, 'DELETE', `/v1/comments/${missing}`));
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${theirs.id}`)).body.rich_text[0].plain_text, 'theirs');
    // Replying to their discussion is allowed: the reply is mine.
    const reply = await created(server, fx.token, { discussion_id: theirs.discussion_id, rich_text: text('reply') });
    assert.notEqual(reply.created_by.id, theirs.created_by.id);
  });

  test("another workspace's comment is not found", async () => {
    const elsewhere = await makeWorkspace(server, { name: 'Elsewhere' });
    const page = await makeSharedPage(server, elsewhere);
    const c = await created(server, elsewhere.token, { parent: { page_id: page.id }, rich_text: text('far') });
    const res = await api(server, fx.token, 'GET', `/v1/comments/${c.id}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'object_not_found');
    assert.equal((await api(server, fx.token, 'POST', '/v1/comments', { discussion_id: c.discussion_id, rich_text: text('x') })).status, 404);
  });

  test('deleting a workspace deletes its comments with it', async () => {
    const doomed = await makeWorkspace(server, { name: 'Doomed' });
    const page = await makeSharedPage(server, doomed);
    await created(server, doomed.token, { parent: { page_id: page.id }, rich_text: text('last words') });
    const res = await call<Json>(server.url, 'DELETE', `/admin/v1/workspaces/${doomed.workspaceId}`, { token: server.adminToken, version: null });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await api(server, doomed.token, 'GET', `/v1/comments?block_id=${page.id}`)).status, 401);
  });
});

describe('comments: bad bodies', () => {
  const { server, fx } = useServer();

  test('exactly one target and exactly one text, for create and update', async () => {
    const page = await makeSharedPage(server, fx);
    const post = (body: Json) => api(server, fx.token, 'POST', '/v1/comments', body);
    const c = await created(server, fx.token, { parent: { page_id: page.id }, rich_text: text('x') });
    expectValidation(await post({ rich_text: text('x') }), /body\.parent should be defined when body\.discussion_id is not/);
    expectValidation(
      await post({ parent: { page_id: page.id }, discussion_id: c.discussion_id, rich_text: text('x') }),
      /body\.discussion_id should be not present: .*body\.parent/,
    );
    expectValidation(await post({ parent: { page_id: page.id } }), /body\.rich_text should be defined when body\.markdown is not/);
    expectValidation(
      await post({ parent: { page_id: page.id }, rich_text: text('x'), markdown: 'x' }),
      /body\.markdown should be not present: .*body\.rich_text/,
    );
    expectValidation(await api(server, fx.token, 'PATCH', `/v1/comments/${c.id}`, {}), 'body.rich_text');
    expectValidation(await api(server, fx.token, 'PATCH', `/v1/comments/${c.id}`, { rich_text: text('a'), markdown: 'b' }), 'body.markdown');
    expectValidation(await api(server, fx.token, 'PATCH', `/v1/comments/${c.id}`, { rich_text: text('a'), parent: { page_id: page.id } }), 'parent');
    // Nothing was written by the refused requests.
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments?block_id=${page.id}`)).body.results.length, 1);
  });

  test('rich text limits, field shapes and the listing query', async () => {
    const page = await makeSharedPage(server, fx);
    const post = (body: Json) => api(server, fx.token, 'POST', '/v1/comments', body);
    expectValidation(await post({ parent: { page_id: page.id }, rich_text: text('a'.repeat(2001)) }), 'body.rich_text[0].text.content.length');
    expectValidation(await post({ parent: { page_id: page.id }, rich_text: Array.from({ length: 101 }, () => text('a')[0]) }), 'body.rich_text');
    expectValidation(await post({ parent: { page_id: 'not-an-id' }, rich_text: text('a') }), 'body.parent');
    expectValidation(await post({ parent: { database_id: page.id }, rich_text: text('a') }), 'body.parent');
    expectValidation(await post({ discussion_id: page.id, parent: undefined, rich_text: text('a'), extra: 1 }), 'extra');
    expectValidation(await api(server, fx.token, 'GET', '/v1/comments'), 'block_id');
    expectValidation(await api(server, fx.token, 'GET', '/v1/comments?block_id=nope'), 'query.block_id');
    expectValidation(await api(server, fx.token, 'GET', '/v1/comments/nope'), 'path.comment_id');
  });

  test('attachments: at most three, each an uploaded file of this connection', async () => {
    const page = await makeSharedPage(server, fx);
    const post = (attachments: Json[]) => api(server, fx.token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('x'), attachments });
    const uploaded: string[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await api(server, fx.token, 'POST', '/v1/file_uploads', { filename: `f${i}.txt` });
      const form = new FormData();
      form.append('file', blobOf(Buffer.from(`file ${i}`), 'text/plain'), `f${i}.txt`);
      const sent = await fetch(`${server.url}/v1/file_uploads/${u.body.id}/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.token}`, 'Notion-Version': '2026-03-11' },
        body: form,
      });
      assert.equal(sent.status, 200);
      uploaded.push(u.body.id);
    }
    expectValidation(await post(uploaded.map((id) => ({ file_upload_id: id }))), 'body.attachments');
    const pending = await api(server, fx.token, 'POST', '/v1/file_uploads', { filename: 'later.txt' });
    expectValidation(
      await post([{ file_upload_id: uploaded[0] }, { file_upload_id: pending.body.id }]),
      /body\.attachments\[1\]\.file_upload_id should be a file upload with status `uploaded`/,
    );
    expectValidation(await post([{ file_upload_id: missingLike(pending.body.id) }]), 'body.attachments[0].file_upload_id');
    // Another connection's upload is not this one's to attach.
    const other = await addConnection(server, fx.workspaceId, ALL);
    const theirs = await api(server, other.token, 'POST', '/v1/file_uploads', { filename: 'theirs.txt' });
    expectValidation(await post([{ file_upload_id: theirs.body.id }]), 'body.attachments[0].file_upload_id');
    // The refused requests attached nothing: the first upload still expires.
    assert.notEqual((await api(server, fx.token, 'GET', `/v1/file_uploads/${uploaded[0]}`)).body.expiry_time, null);
    const three = await post(uploaded.slice(0, 3).map((id) => ({ file_upload_id: id })));
    assert.equal(three.status, 200, JSON.stringify(three.body));
    assert.equal(three.body.attachments.length, 3);
  });
});

describe('comments: trash', () => {
  const { server, fx } = useServer();

  test('comments go to the trash with their page and come back when it is restored', async () => {
    const page = await makeSharedPage(server, fx);
    const c = await created(server, fx.token, { parent: { page_id: page.id }, rich_text: text('kept') });
    const trashed = await api(server, fx.token, 'PATCH', `/v1/pages/${page.id}`, { in_trash: true });
    assert.equal(trashed.status, 200, JSON.stringify(trashed.body));

    const listed = await api(server, fx.token, 'GET', `/v1/comments?block_id=${page.id}`);
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.results, []);
    for (const res of [
      await api(server, fx.token, 'GET', `/v1/comments/${c.id}`),
      await api(server, fx.token, 'PATCH', `/v1/comments/${c.id}`, { rich_text: text('x') }),
      await api(server, fx.token, 'DELETE', `/v1/comments/${c.id}`),
      await api(server, fx.token, 'POST', '/v1/comments', { discussion_id: c.discussion_id, rich_text: text('x') }),
    ]) {
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 'object_not_found');
    }
    // A new discussion on a page in the trash is an edit of it, refused as other edits are.
    expectValidation(await api(server, fx.token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: text('x') }), /archived/);

    await api(server, fx.token, 'PATCH', `/v1/pages/${page.id}`, { in_trash: false });
    assert.deepEqual(
      (await api(server, fx.token, 'GET', `/v1/comments?block_id=${page.id}`)).body.results.map((r: Json) => r.id),
      [c.id],
    );
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${c.id}`)).body.rich_text[0].plain_text, 'kept');
  });

  test("a block's comments follow the block, and the page it is in, to the trash", async () => {
    const page = await makeSharedPage(server, fx);
    const appended = await api(server, fx.token, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ paragraph: { rich_text: text('p') } }] });
    const blockId = appended.body.results[0].id;
    const c = await created(server, fx.token, { parent: { block_id: blockId }, rich_text: text('on block') });
    assert.equal((await api(server, fx.token, 'DELETE', `/v1/blocks/${blockId}`)).status, 200);
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${c.id}`)).status, 404);
    assert.deepEqual((await api(server, fx.token, 'GET', `/v1/comments?block_id=${blockId}`)).body.results, []);
    await api(server, fx.token, 'PATCH', `/v1/blocks/${blockId}`, { in_trash: false });
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${c.id}`)).status, 200);
    // Through the page it sits in.
    await api(server, fx.token, 'PATCH', `/v1/pages/${page.id}`, { in_trash: true });
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${c.id}`)).status, 404);
    await api(server, fx.token, 'PATCH', `/v1/pages/${page.id}`, { in_trash: false });
    assert.equal((await api(server, fx.token, 'GET', `/v1/comments/${c.id}`)).status, 200);
  });
});

/**
 * Issue 13: every rule of the upload endpoints and the error each breach gets — part numbers,
 * part sizes, completing, sending twice, size limits, content types, unknown and unshared
 * uploads, malformed forms, attaching what cannot be attached.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok } from '../content/helpers.js';
import { createUpload, created, MIB, patterned, PNG, refused, send, sent, wav } from './helpers.js';

type Json = Record<string, any>;
const UNKNOWN = '5c6a28a4-1d3b-4b27-9a35-0d3f1b8e2f10';

describe('file uploads: creating', () => {
  const { server, fx } = useServer();
  const create = (body: Json) => createUpload(server, fx.token, body);

  test("each mode's fields", async () => {
    refused(await create({ mode: 'multi_part', filename: 'a.zip' }), 'body.number_of_parts should be defined');
    refused(await create({ mode: 'multi_part', number_of_parts: 2 }), 'body.filename should be defined');
    refused(await create({ mode: 'multi_part', number_of_parts: 2, filename: 'noextension' }), 'body.filename should be a file name with an extension');
    refused(await create({ mode: 'multi_part', number_of_parts: 0, filename: 'a.zip' }), 'body.number_of_parts');
    refused(await create({ mode: 'multi_part', number_of_parts: 1001, filename: 'a.zip' }), 'body.number_of_parts');
    refused(await create({ number_of_parts: 2, filename: 'a.zip' }), 'body.number_of_parts should be not present');
    refused(await create({ external_url: 'https://example.com/a.png' }), 'body.external_url should be not present');
    refused(await create({ mode: 'external_url', filename: 'a.png' }), 'body.external_url should be defined');
    refused(await create({ mode: 'sideways' }), 'body.mode');
    const multi = await created(server, fx, { mode: 'multi_part', number_of_parts: 2, filename: 'noextension', content_type: 'application/zip' });
    assert.equal(multi.content_type, 'application/zip');
  });

  test('file names: at most 900 bytes, no path separators', async () => {
    const name = (bytes: number) => `${'é'.repeat(Math.floor((bytes - 4) / 2))}.txt`;
    assert.equal((await created(server, fx, { filename: name(900) })).filename, name(900));
    refused(await create({ filename: `${'é'.repeat(449)}.txt` }), 'body.filename should be at most 900 bytes long');
    refused(await create({ filename: '../etc/passwd' }), 'body.filename should be a file name without path separators');
  });

  test('content types: a MIME type, `audio/mp4` for .m4a, matching the extension', async () => {
    assert.equal((await created(server, fx, { filename: 'voice.m4a' })).content_type, 'audio/mp4');
    assert.equal((await created(server, fx, { filename: 'voice.m4a', content_type: 'audio/mp4' })).content_type, 'audio/mp4');
    refused(await create({ filename: 'voice.m4a', content_type: 'audio/x-m4a' }), 'body.content_type should be `audio/mp4` for .m4a audio');
    refused(await create({ filename: 'a.png', content_type: 'not a type' }), 'body.content_type should be a MIME type');
    refused(
      await create({ filename: 'photo.png', content_type: 'audio/mpeg' }),
      "body.content_type should be a type matching the filename's extension (image/png)",
    );
    // Audio and video share containers.
    assert.equal((await created(server, fx, { filename: 'clip.mp4', content_type: 'audio/mp4' })).content_type, 'audio/mp4');
  });
});

describe('file uploads: sending', () => {
  const { server, fx } = useServer();

  test('a single-part upload takes one send of at most 20 MiB', async () => {
    const u = await created(server, fx, { filename: 'big.bin' });
    refused(await send(server, fx.token, u.id, patterned(20 * MIB + 1)), 'body.file should be at most 20971520 bytes');
    const after = await ok(server, fx, 'GET', `/v1/file_uploads/${u.id}`);
    assert.equal(after.status, 'pending', 'a refused send leaves the upload pending');
    const done = await sent(server, fx, u.id, patterned(20 * MIB));
    assert.equal(done.content_length, 20 * MIB);
    refused(await send(server, fx.token, u.id, PNG), `File upload ${u.id} is uploaded: only a pending upload takes \`send\`.`);
  });

  test('part numbers: required, within number_of_parts, each once', async () => {
    const u = await created(server, fx, { mode: 'multi_part', number_of_parts: 2, filename: 'a.bin' });
    refused(await send(server, fx.token, u.id, patterned(1000)), 'body.part_number should be defined');
    for (const wrong of ['0', '3', 'x', '1.5', '-1', '']) {
      refused(await send(server, fx.token, u.id, patterned(1000), { partNumber: wrong }), 'body.part_number should be an integer from 1 to 2');
    }
    await sent(server, fx, u.id, patterned(1000), { partNumber: '2' });
    refused(await send(server, fx.token, u.id, patterned(1000), { partNumber: '2' }), 'body.part_number should be a part not sent before');
    // Fields may come before the file too.
    const first = await sent(server, fx, u.id, patterned(5 * MIB), { partNumber: '1', fieldsFirst: true });
    assert.deepEqual(first.number_of_parts, { total: 2, sent: 2 });
    const single = await created(server, fx, { filename: 'one.bin' });
    refused(await send(server, fx.token, single.id, PNG, { partNumber: '2' }), 'body.part_number should be not present for a single-part upload');
  });

  test('part sizes: 5 MiB to 20 MiB, except the last', async () => {
    const u = await created(server, fx, { mode: 'multi_part', number_of_parts: 3, filename: 'a.bin' });
    refused(
      await send(server, fx.token, u.id, patterned(5 * MIB - 1), { partNumber: '1' }),
      'body.file should be at least 5242880 bytes (every part but the last)',
    );
    refused(
      await send(server, fx.token, u.id, patterned(20 * MIB + 1), { partNumber: '2' }),
      'body.file should be at most 20971520 bytes (the most a part may hold)',
    );
    const last = await sent(server, fx, u.id, patterned(10), { partNumber: '3' });
    assert.deepEqual(last.number_of_parts, { total: 3, sent: 1 }, 'refused parts were not kept');
  });

  test('complete: multi-part only, after every part, once', async () => {
    const u = await created(server, fx, { mode: 'multi_part', number_of_parts: 3, filename: 'a.bin' });
    await sent(server, fx, u.id, patterned(5 * MIB), { partNumber: '1' });
    const early = await call<Json>(server.url, 'POST', `/v1/file_uploads/${u.id}/complete`, { token: fx.token });
    refused(early, `File upload ${u.id} has 1 of its 3 parts: send part 2, 3 before \`complete\`.`);
    await sent(server, fx, u.id, patterned(5 * MIB), { partNumber: '2' });
    await sent(server, fx, u.id, patterned(5), { partNumber: '3' });
    const done = await ok(server, fx, 'POST', `/v1/file_uploads/${u.id}/complete`);
    assert.equal(done.content_length, 10 * MIB + 5);
    refused(
      await call<Json>(server.url, 'POST', `/v1/file_uploads/${u.id}/complete`, { token: fx.token }),
      'is uploaded: only a pending upload takes `complete`',
    );
    refused(await send(server, fx.token, u.id, patterned(5), { partNumber: '3' }), 'is uploaded: only a pending upload takes `send`');
    const single = await created(server, fx, { filename: 'x.txt' });
    refused(await call<Json>(server.url, 'POST', `/v1/file_uploads/${single.id}/complete`, { token: fx.token }), 'only a multi-part upload takes `complete`');
  });

  test('the form: `file` required, nothing else but `part_number`, multipart only', async () => {
    const u = await created(server, fx, { filename: 'x.txt' });
    refused(await send(server, fx.token, u.id, PNG, { fileField: null, fields: { note: 'hi' } }), 'body.note should be not present');
    refused(await send(server, fx.token, u.id, PNG, { fileField: null }), 'body.file should be defined');
    refused(await send(server, fx.token, u.id, PNG, { fileField: 'attachment' }), 'body.attachment should be not present');
    const json = await call<Json>(server.url, 'POST', `/v1/file_uploads/${u.id}/send`, { token: fx.token, body: { file: 'x' } });
    refused(json, 'the content type must be multipart/form-data', 400, 'invalid_request');
    assert.equal((await ok(server, fx, 'GET', `/v1/file_uploads/${u.id}`)).status, 'pending');
  });

  test('declared and detected content types must agree; the bytes settle an unknown type', async () => {
    const png = await created(server, fx, { filename: 'photo.png' });
    refused(await send(server, fx.token, png.id, wav(5000)), 'body.file should be a file of the declared content type image/png, instead was a audio/wav file');
    assert.equal((await sent(server, fx, png.id, PNG)).content_type, 'image/png');
    const unnamed = await created(server, fx, {});
    const done = await sent(server, fx, unnamed.id, wav(5000), { filename: 'recording.wav' });
    assert.equal(done.content_type, 'audio/wav');
    assert.equal(done.filename, 'recording.wav', 'the form names a file the upload did not');
    const generic = await created(server, fx, { filename: 'data', content_type: 'application/octet-stream' });
    assert.equal((await sent(server, fx, generic.id, PNG)).content_type, 'image/png');
  });

  test('unknown and unshared uploads are not found, alike', async () => {
    const u = await created(server, fx, { mode: 'multi_part', number_of_parts: 1, filename: 'a.bin' });
    const other = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content']);
    for (const [id, token] of [
      [UNKNOWN, fx.token],
      [u.id, other.token],
    ]) {
      const message = `Could not find file upload with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`;
      refused(await send(server, token, id, PNG, { partNumber: '1' }), message, 404, 'object_not_found');
      refused(await call<Json>(server.url, 'POST', `/v1/file_uploads/${id}/complete`, { token }), message, 404, 'object_not_found');
      refused(await call<Json>(server.url, 'GET', `/v1/file_uploads/${id}`, { token }), message, 404, 'object_not_found');
    }
    refused(
      await call<Json>(server.url, 'GET', '/v1/file_uploads/not-an-id', { token: fx.token }),
      'Could not find file upload with ID: not-an-id',
      404,
      'object_not_found',
    );
  });
});

describe('file uploads: the workspace limit', () => {
  const { server, fx } = useServer();
  before(async () => {
    await admin(server, 'PATCH', `/workspaces/${fx.workspaceId}`, { max_file_upload_size_in_bytes: 6 * MIB });
  });

  test('the operator sets it, the bot shows it, uploads obey it', async () => {
    const me = await ok(server, fx, 'GET', '/v1/users/me');
    assert.equal(me.bot.workspace_limits.max_file_upload_size_in_bytes, 6 * MIB);
    const single = await created(server, fx, { filename: 'a.bin' });
    refused(await send(server, fx.token, single.id, patterned(6 * MIB + 1)), "body.file should be at most 6291456 bytes (the workspace's file size limit)");
    const multi = await created(server, fx, { mode: 'multi_part', number_of_parts: 2, filename: 'a.bin' });
    await sent(server, fx, multi.id, patterned(5 * MIB), { partNumber: '1' });
    refused(
      await send(server, fx.token, multi.id, patterned(MIB + 1), { partNumber: '2' }),
      "body.file should be at most 1048576 bytes (the workspace's file size limit)",
    );
    await sent(server, fx, multi.id, patterned(MIB), { partNumber: '2' });
    assert.equal((await ok(server, fx, 'POST', `/v1/file_uploads/${multi.id}/complete`)).content_length, 6 * MIB);

    const reset = await admin(server, 'PATCH', `/workspaces/${fx.workspaceId}`, { max_file_upload_size_in_bytes: null });
    assert.equal(reset.max_file_upload_size_in_bytes, null);
    assert.equal((await ok(server, fx, 'GET', '/v1/users/me')).bot.workspace_limits.max_file_upload_size_in_bytes, 5 * 1024 ** 3);
    const bad = await call<Json>(server.url, 'PATCH', `/admin/v1/workspaces/${fx.workspaceId}`, {
      token: server.adminToken,
      version: null,
      body: { max_file_upload_size_in_bytes: -1 },
    });
    assert.equal(bad.status, 400);
  });
});

describe('file uploads: attaching', () => {
  const { server, fx } = useServer();

  test('only an uploaded upload of this connection; never the hosted scheme itself', async () => {
    const page = await makeSharedPage(server, fx);
    const append = (child: Json) => call<Json>(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, { token: fx.token, body: { children: [child] } });
    const pending = await created(server, fx, { filename: 'a.png' });
    refused(
      await append({ image: { file_upload: { id: pending.id } } }),
      'body.children[0].image.file_upload.id should be a file upload with status `uploaded` (this one is `pending`)',
    );
    refused(
      await append({ image: { file_upload: { id: UNKNOWN } } }),
      'body.children[0].image.file_upload.id should be the ID of a file upload created by this integration',
    );
    const other = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content']);
    const theirs = await createUpload(server, other.token, { filename: 'b.png' });
    await send(server, other.token, theirs.body.id, PNG);
    refused(await append({ image: { file_upload: { id: theirs.body.id } } }), 'should be the ID of a file upload created by this integration');
    refused(
      await append({ file: { type: 'external', external: { url: `folio-file:${theirs.body.id}/b.png` } } }),
      'body.children[0].file.external.url should be a URL with an http or https scheme',
    );
    // A write refused after the upload was checked attached nothing: the upload still expires.
    await sent(server, fx, pending.id, PNG);
    const missingParent = await call<Json>(server.url, 'PATCH', `/v1/blocks/${UNKNOWN}/children`, {
      token: fx.token,
      body: { children: [{ image: { file_upload: { id: pending.id } } }] },
    });
    assert.equal(missingParent.status, 404);
    const stillExpiring = await ok(server, fx, 'GET', `/v1/file_uploads/${pending.id}`);
    assert.notEqual(stillExpiring.expiry_time, null);
  });
});

describe('file uploads: attaching in deep bodies', () => {
  const { server, fx } = useServer();

  // Found by test/fuzz/bodies.test.ts: the walk for upload references recursed once per level
  // and a body nested a few thousand levels deep overflowed the call stack (a 500).
  test('a value nested 3,000 levels deep gets its validation error, not a 500', async () => {
    const page = await makeSharedPage(server, fx);
    const database = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { type: 'page_id', page_id: page.id },
      title: [{ text: { content: 'Deep' } }],
      initial_data_source: { properties: { Name: { title: {} }, Kind: { select: { options: [{ name: 'A' }] } } } },
    });
    let deep: unknown = [];
    for (let i = 0; i < 3000; i++) deep = [deep];
    const res = await call<Record<string, any>>(server.url, 'PATCH', `/v1/data_sources/${database.data_sources[0].id}`, {
      token: fx.token,
      body: { properties: { Kind: { select: { options: [{ name: deep }] } } } },
    });
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.code, 'validation_error');
    assert.match(res.body.message, /body\.properties\.Kind\.select\.options\[0\]\.name/);
  });

  test('references deep in a body are each replaced, and nothing else is touched', async () => {
    const page = await makeSharedPage(server, fx);
    const upload = await created(server, fx, { filename: 'a.png' });
    await sent(server, fx, upload.id, PNG, { filename: 'a.png' });
    const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
      children: [
        {
          toggle: {
            rich_text: [{ text: { content: 'outer' } }],
            children: [{ image: { type: 'file_upload', file_upload: { id: upload.id } } }, { file: { file_upload: { id: upload.id } } }],
          },
        },
      ],
    });
    const toggle = appended.results[0];
    const inner = (await ok(server, fx, 'GET', `/v1/blocks/${toggle.id}/children`)).results;
    assert.deepEqual(
      inner.map((b: Record<string, any>) => [b.type, b[b.type].type]),
      [
        ['image', 'file'],
        ['file', 'file'],
      ],
    );
    assert.equal(toggle.toggle.rich_text[0].plain_text, 'outer');
  });
});

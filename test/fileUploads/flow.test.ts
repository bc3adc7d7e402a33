/**
 * Issue 13: the file-upload flow through the official SDK and raw HTTP — single-part and
 * multi-part uploads, attaching to media blocks, page icons and covers and files properties, and
 * reading the bytes back through the signed link Folio serves.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client, LogLevel } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok, text } from '../content/helpers.js';
import { blobOf, created, download, MIB, patterned, PNG, sent, sha256, wav } from './helpers.js';

type Json = Record<string, any>;
const quiet = { logLevel: LogLevel.ERROR, logger: () => undefined };

describe('file uploads: the SDK flow', () => {
  const { server, fx } = useServer();
  const sdk = () => new Client({ auth: fx.token, baseUrl: server.url, ...quiet });

  test('create, send, attach to an audio block, read back byte for byte', async () => {
    const audio = wav(300_000);
    const upload = await sdk().fileUploads.create({ filename: 'standup.wav' });
    assert.equal(upload.status, 'pending');
    assert.equal(upload.filename, 'standup.wav');
    assert.equal(upload.content_type, 'audio/wav');
    assert.equal(upload.upload_url, `${server.url}/v1/file_uploads/${upload.id}/send`);
    assert.ok(Date.parse(upload.expiry_time!) - Date.parse(upload.created_time) >= 59 * 60_000);

    const done = await sdk().fileUploads.send({ file_upload_id: upload.id, file: { filename: 'standup.wav', data: blobOf(audio, 'audio/wav') } });
    assert.equal(done.status, 'uploaded');
    assert.equal(done.content_length, audio.length);
    assert.equal(done.upload_url, undefined);

    const page = await makeSharedPage(server, fx);
    const appended = await sdk().blocks.children.append({
      block_id: page.id,
      children: [{ type: 'audio', audio: { type: 'file_upload', file_upload: { id: upload.id } } }],
    });
    const block = appended.results[0] as Json;
    assert.equal(block.audio.type, 'file');
    const read = (await sdk().blocks.retrieve({ block_id: block.id })) as Json;
    const { url, expiry_time } = read.audio.file;
    assert.ok(url.startsWith(`${server.url}/files/${upload.id}/standup.wav?`), url);
    assert.ok(Math.abs(Date.parse(expiry_time) - Date.now() - 3600_000) < 120_000, expiry_time);

    const got = await download(url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'audio/wav');
    assert.equal(got.bytes.length, audio.length);
    assert.equal(sha256(got.bytes), sha256(audio));

    // Attached: it no longer expires.
    const after = await sdk().fileUploads.retrieve({ file_upload_id: upload.id });
    assert.equal(after.expiry_time, null);
    assert.equal(after.status, 'uploaded');
  });

  test('multi-part: parts in any order, complete, attach, read back', async () => {
    const first = patterned(5 * MIB, 3);
    const second = patterned(5 * MIB + 17, 4);
    const last = patterned(1234, 5);
    const whole = Buffer.concat([first, second, last]);
    const upload = await sdk().fileUploads.create({ mode: 'multi_part', number_of_parts: 3, filename: 'archive.zip' });
    assert.deepEqual(upload.number_of_parts, { total: 3, sent: 0 });
    assert.equal(upload.complete_url, `${server.url}/v1/file_uploads/${upload.id}/complete`);
    const part = (n: number, data: Buffer) =>
      sdk().fileUploads.send({ file_upload_id: upload.id, part_number: String(n), file: { filename: 'archive.zip', data: blobOf(data) } });
    await part(3, last);
    const two = await part(2, second);
    assert.deepEqual(two.number_of_parts, { total: 3, sent: 2 });
    assert.equal(two.status, 'pending');
    await part(1, first);
    const completed = await sdk().fileUploads.complete({ file_upload_id: upload.id });
    assert.equal(completed.status, 'uploaded');
    assert.equal(completed.content_length, whole.length);
    assert.equal(completed.complete_url, undefined);

    const page = await makeSharedPage(server, fx);
    const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
      children: [{ type: 'file', file: { type: 'file_upload', file_upload: { id: upload.id }, caption: text('the archive') } }],
    });
    const block = appended.results[0];
    assert.equal(block.file.name, 'archive.zip');
    assert.equal(block.file.caption[0].plain_text, 'the archive');
    const got = await download(block.file.file.url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-disposition'), "attachment; filename*=UTF-8''archive.zip");
    assert.equal(sha256(got.bytes), sha256(whole));
  });

  test('page icon, cover and a files property take uploads; every read signs a fresh link', async () => {
    const upload = async (name: string, bytes: Buffer) => {
      const u = await created(server, fx, { filename: name });
      return sent(server, fx, u.id, bytes, { filename: name });
    };
    const icon = await upload('icon.png', PNG);
    const cover = await upload('cover.png', PNG);
    const doc = await upload('notes.txt', Buffer.from('plain notes\n'));
    const database = await ok(server, fx, 'POST', '/v1/databases', {
      parent: { type: 'page_id', page_id: (await makeSharedPage(server, fx)).id },
      title: text('Docs'),
      initial_data_source: { properties: { Name: { title: {} }, Attachments: { files: {} } } },
    });
    const page = await ok(server, fx, 'POST', '/v1/pages', {
      parent: { type: 'data_source_id', data_source_id: database.data_sources[0].id },
      icon: { type: 'file_upload', file_upload: { id: icon.id } },
      cover: { type: 'file_upload', file_upload: { id: cover.id } },
      properties: { Name: { title: text('With files') }, Attachments: { files: [{ type: 'file_upload', file_upload: { id: doc.id } }] } },
    });
    assert.equal(page.icon.type, 'file');
    assert.equal(page.cover.type, 'file');
    const files = page.properties.Attachments.files;
    assert.equal(files[0].name, 'notes.txt');
    assert.equal(files[0].type, 'file');
    assert.equal((await download(page.icon.file.url)).bytes.toString('hex'), PNG.toString('hex'));
    assert.equal((await download(files[0].file.url)).bytes.toString(), 'plain notes\n');

    // The query endpoint writes stored values straight into its bytes: links are signed there too.
    const queried = await ok(server, fx, 'POST', `/v1/data_sources/${database.data_sources[0].id}/query`, {});
    const row = queried.results.find((r: Json) => r.id === page.id);
    assert.match(row.properties.Attachments.files[0].file.url, new RegExp(`^${server.url}/files/${doc.id}/notes\\.txt\\?expires=\\d+&signature=`));
    // And at an older version (the SDK's default), through the version transforms.
    const old = await call<Json>(server.url, 'GET', `/v1/pages/${page.id}`, { token: fx.token, version: '2022-06-28' });
    assert.equal(old.status, 200);
    assert.equal((await download(old.body.cover.file.url)).status, 200);

    // The same upload attached twice.
    const again = await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { icon: { type: 'file_upload', file_upload: { id: cover.id } } });
    assert.equal((await download(again.icon.file.url)).status, 200);
  });

  test('a tampered or expired link is refused', async () => {
    const u = await created(server, fx, { filename: 'a.png' });
    await sent(server, fx, u.id, PNG, { filename: 'a.png' });
    const page = await makeSharedPage(server, fx);
    const block = (await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ image: { file_upload: { id: u.id } } }] })).results[0];
    const url = new URL(block.image.file.url);
    assert.equal((await download(url.toString())).status, 200);

    const signature = url.searchParams.get('signature')!;
    const tampered = new URL(url);
    tampered.searchParams.set('signature', (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1));
    const refusedTampered = await fetch(tampered);
    assert.equal(refusedTampered.status, 403);
    assert.equal(((await refusedTampered.json()) as Json).message, 'This file link is not valid.');

    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    assert.equal((await fetch(later)).status, 403, 'a later expiry with the old signature');

    const otherId = new URL(url.toString().replace(u.id, '00000000-0000-4000-8000-000000000000'));
    assert.equal((await fetch(otherId)).status, 403, 'another upload under the same signature');
    assert.equal((await fetch(`${server.url}/files/${u.id}/a.png`)).status, 403, 'no signature');
  });

  test("retrieve and list are the creating connection's own; list filters by status and pages", async () => {
    const mine = await created(server, fx, { filename: 'x.txt' });
    await created(server, fx, { filename: 'y.txt' });
    const other = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content']);
    const theirs = await call<Json>(server.url, 'GET', `/v1/file_uploads/${mine.id}`, { token: other.token });
    assert.equal(theirs.status, 404);
    assert.equal(theirs.body.code, 'object_not_found');
    assert.equal(
      theirs.body.message,
      `Could not find file upload with ID: ${mine.id}. Make sure the relevant pages and databases are shared with your integration.`,
    );
    const theirList = await call<Json>(server.url, 'GET', '/v1/file_uploads', { token: other.token });
    assert.deepEqual(theirList.body.results, []);

    const pending = await ok(server, fx, 'GET', '/v1/file_uploads?status=pending&page_size=1');
    assert.equal(pending.type, 'file_upload');
    assert.deepEqual(pending.file_upload, {});
    assert.equal(pending.results.length, 1);
    assert.equal(pending.results[0].status, 'pending');
    assert.equal(pending.has_more, true);
    const seen = new Set<string>(pending.results.map((r: Json) => r.id));
    let cursor = pending.next_cursor;
    while (cursor) {
      const next = await ok(server, fx, 'GET', `/v1/file_uploads?status=pending&page_size=1&start_cursor=${cursor}`);
      for (const r of next.results) {
        assert.equal(r.status, 'pending');
        assert.ok(!seen.has(r.id), 'no upload twice');
        seen.add(r.id);
      }
      cursor = next.next_cursor;
    }
    assert.ok(seen.has(mine.id));
    const uploaded = await ok(server, fx, 'GET', '/v1/file_uploads?status=uploaded');
    assert.ok(uploaded.results.length >= 3 && uploaded.results.every((r: Json) => r.status === 'uploaded'));
    const badCursor = await call<Json>(server.url, 'GET', `/v1/file_uploads?status=uploaded&start_cursor=${cursor ?? pending.next_cursor}`, {
      token: fx.token,
    });
    assert.equal(badCursor.status, 400, 'a cursor of another status filter');
  });

  test('creating and sending need insert_content; reading does not', async () => {
    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    const res = await call<Json>(server.url, 'POST', '/v1/file_uploads', { token: reader.token, body: { filename: 'x.txt' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'restricted_resource');
    assert.equal((await call<Json>(server.url, 'GET', '/v1/file_uploads', { token: reader.token })).status, 200);
  });

  test('older versions see `archived` beside `in_trash`', async () => {
    const u = await created(server, fx, { filename: 'x.txt' });
    const newest = await ok(server, fx, 'GET', `/v1/file_uploads/${u.id}`);
    assert.equal('archived' in newest, false);
    const old = await call<Json>(server.url, 'GET', `/v1/file_uploads/${u.id}`, { token: fx.token, version: '2025-09-03' });
    assert.equal(old.body.archived, false);
    assert.equal(old.body.in_trash, false);
  });
});

/**
 * Issue 13: an upload expires an hour after creation unless attached; an expired upload cannot be
 * sent to or attached, and the sweeper deletes its bytes. Driven by the test clock.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { STORE } from '../helpers/server.js';
import { ok } from '../content/helpers.js';
import { created, download, MIB, patterned, PNG, refused, send, sent } from './helpers.js';

type Json = Record<string, any>;

/** Files the disk store holds (the SQLite default); null on other stores. */
function storedFiles(dataDir: string): string[] | null {
  if (STORE !== 'sqlite') return null;
  const root = path.join(dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('file uploads: expiry and the sweeper', () => {
  // The sweeper acts on the whole store: on PostgreSQL a database of its own keeps other files' uploads out of its counts.
  const { server, fx } = useServer({ env: { FOLIO_TEST_CLOCK: '1' }, ownDatabase: true });
  const setClock = (now: string | null) => admin(server, 'POST', '/clock', { now });

  test('unattached uploads expire after an hour; attached ones never do', async () => {
    await setClock('2031-01-01T10:00:00.000Z');
    const kept = await created(server, fx, { filename: 'kept.png' });
    await sent(server, fx, kept.id, PNG);
    const dropped = await created(server, fx, { filename: 'dropped.png' });
    await sent(server, fx, dropped.id, PNG);
    const partial = await created(server, fx, { mode: 'multi_part', number_of_parts: 2, filename: 'p.bin' });
    await sent(server, fx, partial.id, patterned(5 * MIB), { partNumber: '1' });
    assert.equal(dropped.expiry_time, '2031-01-01T11:00:00.000Z');

    const page = await makeSharedPage(server, fx);
    const block = (await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ image: { file_upload: { id: kept.id } } }] })).results[0];
    const before = storedFiles(server.dataDir);
    if (before) assert.equal(before.length, 3);

    await setClock('2031-01-01T11:00:00.000Z');
    const expired = await ok(server, fx, 'GET', `/v1/file_uploads/${dropped.id}`);
    assert.equal(expired.status, 'expired', 'expired at its expiry, before any sweep');
    assert.equal((await ok(server, fx, 'GET', `/v1/file_uploads/${kept.id}`)).status, 'uploaded');
    const listed = await ok(server, fx, 'GET', '/v1/file_uploads?status=expired');
    assert.deepEqual(listed.results.map((r: Json) => r.id).sort(), [dropped.id, partial.id].sort());
    refused(
      await call<Json>(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, {
        token: fx.token,
        body: { children: [{ image: { file_upload: { id: dropped.id } } }] },
      }),
      'body.children[0].image.file_upload.id should be a file upload that has not expired',
    );
    refused(await send(server, fx.token, partial.id, patterned(10), { partNumber: '2' }), `File upload ${partial.id} is expired`);

    const swept = await admin(server, 'POST', '/file_uploads/sweep');
    assert.equal(swept.expired, 2);
    assert.equal(swept.blobs_deleted, 2);
    const after = storedFiles(server.dataDir);
    if (after) assert.equal(after.length, 1, 'only the attached file is left');
    assert.equal((await admin(server, 'POST', '/file_uploads/sweep')).blobs_deleted, 0, 'a second sweep finds nothing');

    // The attached file is still served; its link is signed at the clock's time.
    const read = await ok(server, fx, 'GET', `/v1/blocks/${block.id}`);
    assert.equal(read.image.file.expiry_time, '2031-01-01T12:00:00.000Z');
    assert.equal((await download(read.image.file.url)).status, 200);
    await setClock('2031-01-01T12:00:01.000Z');
    const stale = await download(read.image.file.url);
    assert.equal(stale.status, 403, 'the link expired');
    assert.equal(JSON.parse(stale.bytes.toString()).message, 'This file link has expired.');
    await setClock(null);
  });
});

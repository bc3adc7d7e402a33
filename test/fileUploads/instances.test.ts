/**
 * Issue 13: with several instances, every instance serves every file — on PostgreSQL with the
 * default database backend, and with the S3 backend (against s3rver, an S3-compatible server
 * installed from npm). On SQLite, one instance per store: the S3 backend is tested on it alone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, STORE, type TestServer } from '../helpers/server.js';
import { makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { startS3rver } from '../helpers/s3rver.js';
import { ok } from '../content/helpers.js';
import { created, download, MIB, patterned, sent, sha256 } from './helpers.js';

/** Uploads a two-part file on `one`, attaches it, and reads it through `other`'s link and API. */
async function sendOnOneReadOnOther(one: TestServer, other: TestServer, fx: Fixture): Promise<void> {
  const bytes = [patterned(5 * MIB, 11), patterned(300_000, 12)];
  const upload = await created(one, fx, { mode: 'multi_part', number_of_parts: 2, filename: 'shared.bin' });
  await sent(one, fx, upload.id, bytes[0], { partNumber: '1' });
  // The second part goes to the other instance: parts of one upload may arrive anywhere.
  await sent(other, fx, upload.id, bytes[1], { partNumber: '2' });
  await ok(one, fx, 'POST', `/v1/file_uploads/${upload.id}/complete`);
  const page = await makeSharedPage(one, fx);
  const block = (await ok(one, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ file: { file_upload: { id: upload.id } } }] })).results[0];
  const read = await ok(other, fx, 'GET', `/v1/blocks/${block.id}`);
  assert.ok(read.file.file.url.startsWith(other.url), 'the link names the instance that was asked');
  const viaOther = await download(read.file.file.url);
  assert.equal(viaOther.status, 200);
  assert.equal(sha256(viaOther.bytes), sha256(Buffer.concat(bytes)));
  // A link signed by one instance is honoured by the other (one secret per store).
  const viaOne = await download(block.file.file.url.replace(one.url, other.url));
  assert.equal(viaOne.status, 200);
}

describe('file uploads: two instances on one PostgreSQL', { skip: STORE !== 'postgres' && 'needs DATABASE_URL' }, () => {
  let servers: TestServer[] = [];
  let fx: Fixture;
  before(async () => {
    servers = [await startTestServer(), await startTestServer()];
    fx = await makeWorkspace(servers[0]);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  test('a file sent to one is served by the other (database backend)', async () => {
    await sendOnOneReadOnOther(servers[0], servers[1], fx);
  });
});

describe('file uploads: the S3 backend', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  let servers: TestServer[] = [];
  let fx: Fixture;
  before(async () => {
    s3 = await startS3rver();
    servers = [await startTestServer(s3.settingsEnv)];
    if (STORE === 'postgres') servers.push(await startTestServer(s3.settingsEnv));
    fx = await makeWorkspace(servers[0]);
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await s3.close();
  });

  test(STORE === 'postgres' ? 'a file sent to one instance is served by the other' : 'files are stored in and served from the bucket', async () => {
    await sendOnOneReadOnOther(servers[0], servers[servers.length - 1], fx);
  });
});

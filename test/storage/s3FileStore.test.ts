/**
 * The S3 file store against a real S3-compatible server (s3rver, in this process): large files
 * stream through in parts and come back byte for byte, a failed write leaves nothing readable,
 * deletes forgive absent keys, and the prefix keeps deployments apart.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { createS3FileStore } from '../../src/storage/files/s3FileStore.js';
import type { FileStore, S3Settings } from '../../src/storage/files/fileStore.js';
import { startS3rver, type RunningS3rver } from '../helpers/s3rver.js';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** `size` random bytes made one chunk at a time, with their sha256 once the stream has ended. */
function generatedStream(size: number, failAfter?: { bytes: number; error: Error }): { source: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let sent = 0; sent < size; sent += CHUNK) {
      if (failAfter && sent >= failAfter.bytes) throw failAfter.error;
      const chunk = randomBytes(Math.min(CHUNK, size - sent));
      hash.update(chunk);
      yield chunk;
    }
  }
  return { source: Readable.from(chunks(), { objectMode: false }), sha256: () => hash.digest('hex') };
}

async function digest(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.byteLength;
  }
  return { bytes, sha256: hash.digest('hex') };
}

const isNoSuchKey = (error: unknown) => error instanceof Error && error.name === 'NoSuchKey';

describe('the S3 file store', () => {
  let s3: RunningS3rver;
  let settings: S3Settings;
  let store: FileStore;

  before(async () => {
    s3 = await startS3rver();
    settings = {
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: s3.settingsEnv.FOLIO_S3_ACCESS_KEY_ID,
      secretAccessKey: s3.settingsEnv.FOLIO_S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
      prefix: '',
    };
    store = createS3FileStore(settings);
  });
  after(async () => {
    await store.close();
    await s3.close();
  });

  test('is of kind s3', () => {
    assert.equal(store.kind, 's3');
  });

  test('streams 12 MiB in and out, byte for byte', async () => {
    // Three parts: two of 5 MiB and a last of 2 MiB.
    const { source, sha256 } = generatedStream(12 * MiB);
    const bytes = await store.write('uploads/large/a', source);
    assert.equal(bytes, 12 * MiB);
    assert.deepEqual(await digest(store.read('uploads/large/a')), { bytes: 12 * MiB, sha256: sha256() });
  });

  test('stores a small file and an empty one in a single request each', async () => {
    const small = generatedStream(1000);
    assert.equal(await store.write('uploads/small/a', small.source), 1000);
    assert.deepEqual(await digest(store.read('uploads/small/a')), { bytes: 1000, sha256: small.sha256() });

    const empty = generatedStream(0);
    assert.equal(await store.write('uploads/empty/a', empty.source), 0);
    assert.deepEqual(await digest(store.read('uploads/empty/a')), { bytes: 0, sha256: empty.sha256() });
  });

  for (const [when, bytes] of [
    ['after two parts have been sent', 11 * MiB],
    ['before the first part is full', 100 * 1024],
  ] as const) {
    test(`a source that fails ${when} rejects with its own error and leaves nothing`, async () => {
      const error = new Error('upload too large');
      const { source } = generatedStream(12 * MiB, { bytes, error });
      await assert.rejects(store.write(`uploads/failed-${bytes}/a`, source), (thrown) => thrown === error);
      await assert.rejects(digest(store.read(`uploads/failed-${bytes}/a`)), isNoSuchKey);
    });
  }

  test('a write the backend refuses rejects with the backend error and releases the source', async () => {
    const missingBucket = createS3FileStore({ ...settings, bucket: 'no-such-bucket' });
    try {
      const { source } = generatedStream(6 * MiB);
      await assert.rejects(missingBucket.write('uploads/refused/a', source), (thrown) => thrown instanceof Error && thrown.name === 'NoSuchBucket');
      assert.equal(source.destroyed, true);
    } finally {
      await missingBucket.close();
    }
  });

  test('reading an absent key errors the stream', async () => {
    await assert.rejects(digest(store.read('uploads/never/written')), isNoSuchKey);
  });

  test('deletes written keys and forgives absent ones', async () => {
    await store.write('uploads/deleted/a', generatedStream(10).source);
    await store.write('uploads/deleted/b', generatedStream(10).source);
    await store.delete(['uploads/deleted/a', 'uploads/deleted/absent', 'uploads/deleted/b']);
    await store.delete(['uploads/deleted/absent']);
    await store.delete([]);
    await assert.rejects(digest(store.read('uploads/deleted/a')), isNoSuchKey);
    await assert.rejects(digest(store.read('uploads/deleted/b')), isNoSuchKey);
  });

  test('keeps every key under its prefix', async () => {
    const prefixed = createS3FileStore({ ...settings, prefix: 'deployment-a/' });
    try {
      const { source, sha256 } = generatedStream(1000);
      await prefixed.write('uploads/prefixed/a', source);
      const expected = { bytes: 1000, sha256: sha256() };
      assert.deepEqual(await digest(prefixed.read('uploads/prefixed/a')), expected);
      // The bucket itself holds it under the prefix, and nothing under the bare key.
      assert.deepEqual(await digest(store.read('deployment-a/uploads/prefixed/a')), expected);
      await assert.rejects(digest(store.read('uploads/prefixed/a')), isNoSuchKey);

      await prefixed.delete(['uploads/prefixed/a']);
      await assert.rejects(digest(store.read('deployment-a/uploads/prefixed/a')), isNoSuchKey);
    } finally {
      await prefixed.close();
    }
  });
});

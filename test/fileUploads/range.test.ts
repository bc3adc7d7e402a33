import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { blobOf, MIB, patterned, wav } from './helpers.js';

type Json = Record<string, any>;

/** GET /files/… with byte ranges (RFC 9110 §14), so the console's player can seek in a recording. */
describe('hosted files answer byte ranges', () => {
  const { server, fx } = useServer();
  const sdk = () => new Client({ auth: fx.token, baseUrl: server.url, retry: false } as any);

  async function hosted(filename: string, parts: Buffer[], type: 'audio' | 'file'): Promise<string> {
    const upload: Json =
      parts.length === 1
        ? await sdk().fileUploads.create({ mode: 'single_part', filename } as any)
        : await sdk().fileUploads.create({ mode: 'multi_part', number_of_parts: parts.length, filename } as any);
    for (let i = 0; i < parts.length; i++)
      await sdk().fileUploads.send({
        file_upload_id: upload.id,
        ...(parts.length > 1 ? { part_number: String(i + 1) } : {}),
        file: { filename, data: blobOf(parts[i]) },
      } as any);
    if (parts.length > 1) await sdk().fileUploads.complete({ file_upload_id: upload.id });
    const page = await makeSharedPage(server, fx, filename);
    const appended: Json = await sdk().blocks.children.append({
      block_id: page.id,
      children: [{ type, [type]: { type: 'file_upload', file_upload: { id: upload.id } } }] as any,
    });
    return appended.results[0][type].file.url;
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { headers }).then(async (r) => ({ r, bytes: Buffer.from(await r.arrayBuffer()) }));

  test('a range, an open range, a suffix, an unsatisfiable one, and what is answered whole', async () => {
    const bytes = wav(64 * 1024);
    const url = await hosted('talk.wav', [bytes], 'audio');
    const whole = await get(url);
    assert.equal(whole.r.status, 200);
    assert.equal(whole.r.headers.get('accept-ranges'), 'bytes');
    assert.ok(whole.bytes.equals(bytes));

    const middle = await get(url, { range: 'bytes=1000-1999' });
    assert.equal(middle.r.status, 206);
    assert.equal(middle.r.headers.get('content-range'), `bytes 1000-1999/${bytes.length}`);
    assert.equal(middle.r.headers.get('content-length'), '1000');
    assert.ok(middle.bytes.equals(bytes.subarray(1000, 2000)));

    const open = await get(url, { range: `bytes=${bytes.length - 10}-` });
    assert.equal(open.r.status, 206);
    assert.ok(open.bytes.equals(bytes.subarray(bytes.length - 10)));

    const suffix = await get(url, { range: 'bytes=-500' });
    assert.equal(suffix.r.headers.get('content-range'), `bytes ${bytes.length - 500}-${bytes.length - 1}/${bytes.length}`);
    assert.ok(suffix.bytes.equals(bytes.subarray(bytes.length - 500)));

    const beyondEnd = await get(url, { range: `bytes=0-${bytes.length * 2}` });
    assert.equal(beyondEnd.r.status, 206);
    assert.ok(beyondEnd.bytes.equals(bytes));

    const unsatisfiable = await get(url, { range: `bytes=${bytes.length}-` });
    assert.equal(unsatisfiable.r.status, 416);
    assert.equal(unsatisfiable.r.headers.get('content-range'), `bytes */${bytes.length}`);

    // Several ranges, another unit, a malformed header, or a conditional range: the whole file.
    for (const headers of [
      { range: 'bytes=0-1,5-6' } as Record<string, string>,
      { range: 'items=0-1' },
      { range: 'bytes=abc' },
      { range: 'bytes=0-1', 'if-range': '"x"' },
    ]) {
      const answer = await get(url, headers);
      assert.equal(answer.r.status, 200, JSON.stringify(headers));
      assert.equal(answer.bytes.length, bytes.length);
    }

    // An altered link is still refused, range or not.
    assert.equal((await get(url.replace(/signature=[^&]+/, 'signature=0'), { range: 'bytes=0-1' })).r.status, 403);

    // The player's range requests are in the request log the console reads.
    const log = await admin(server, 'GET', '/requests?status=206');
    assert.ok(log.results.some((r: Json) => r.path === new URL(url).pathname && r.method === 'GET'));
  });

  test('a range across the parts of a multi-part file reads only what it covers', async () => {
    const parts = [patterned(5 * MIB, 11), patterned(1000, 12)];
    const whole = Buffer.concat(parts);
    const url = await hosted('parts.bin', parts, 'file');
    const start = 5 * MIB - 100;
    const end = 5 * MIB + 400;
    const across = await get(url, { range: `bytes=${start}-${end}` });
    assert.equal(across.r.status, 206);
    assert.ok(across.bytes.equals(whole.subarray(start, end + 1)));
    const lastPart = await get(url, { range: `bytes=${whole.length - 1000}-` });
    assert.ok(lastPart.bytes.equals(parts[1]));
    const firstPart = await get(url, { range: 'bytes=10-19' });
    assert.ok(firstPart.bytes.equals(parts[0].subarray(10, 20)));
  });
});

/**
 * Issue 13, `external_url` uploads: the network side. Refusals are checked without a network (a
 * literal address is refused before connecting, a name at its lookup); fetching runs against real
 * servers on 127.0.0.1 with private addresses allowed, as a local twin runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { checkUrl, FetchFailed, fetchUrl, isPrivateAddress, probeUrl, TooLarge, UrlRefused, type UrlPolicy } from '../../src/net/publicUrl.js';

const PUBLIC_ONLY: UrlPolicy = { allowPrivate: false };
const PRIVATE_TOO: UrlPolicy = { allowPrivate: true };

interface Listening {
  origin: string;
  port: number;
  connections: () => number;
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that counts the connections it accepted. */
async function listen(server: http.Server | net.Server): Promise<Listening> {
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        if (server instanceof http.Server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `attempt` and returns the UrlRefused it fails with. */
async function refusal(attempt: () => unknown): Promise<UrlRefused> {
  try {
    await attempt();
  } catch (error) {
    assert.ok(error instanceof UrlRefused, `expected UrlRefused, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a refusal');
}

async function failure<T extends Error>(attempt: () => Promise<unknown>, type: new (...args: any[]) => T): Promise<T> {
  try {
    await attempt();
  } catch (error) {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    return error;
  }
  assert.fail(`expected ${type.name}`);
}

/** Reads a stream to its end, or to its error (returned with the bytes that came before it). */
async function drain(body: Readable): Promise<{ bytes: Buffer; error: Error | null }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks), error: null };
  } catch (error) {
    return { bytes: Buffer.concat(chunks), error: error as Error };
  }
}

describe('isPrivateAddress', () => {
  const table: Array<[string, boolean]> = [
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['10.0.0.1', true],
    ['10.255.255.255', true],
    ['100.64.0.1', true],
    ['100.127.255.255', true],
    ['100.128.0.1', false],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['169.254.169.254', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['172.15.255.255', false],
    ['192.0.0.8', true],
    ['192.0.1.1', false],
    ['192.168.1.1', true],
    ['198.18.0.1', true],
    ['198.19.255.255', true],
    ['198.20.0.1', false],
    ['224.0.0.1', true],
    ['239.255.255.255', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
    ['::', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['fc00::1', true],
    ['fd12:3456::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['febf::1', true],
    ['fec0::1', false],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:10.1.2.3', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::8.8.8.8', false],
    ['2606:4700::1111', false],
    ['2001:4860:4860::8888', false],
    ['not an address', true],
    ['', true],
  ];
  for (const [ip, expected] of table) {
    test(`${ip || '(empty)'} is ${expected ? 'private' : 'public'}`, () => assert.equal(isPrivateAddress(ip), expected));
  }
});

describe('refusals (private addresses not allowed)', { timeout: 10_000 }, () => {
  let host: Listening;
  before(async () => {
    host = await listen(http.createServer((_request, response) => response.end('reached')));
  });
  after(() => host.close());

  test('each URL is refused with its reason, before any connection', async () => {
    const cases: Array<[string, UrlRefused['reason']]> = [
      [`${host.origin}/a.png`, 'scheme'],
      [`https://127.0.0.1:${host.port}/a.png`, 'private_address'],
      ['https://10.0.0.1/', 'private_address'],
      ['https://192.168.0.10/a.png', 'private_address'],
      ['https://[::1]/', 'private_address'],
      ['https://[::ffff:127.0.0.1]/', 'private_address'],
      ['https://169.254.169.254/latest/meta-data', 'private_address'],
      ['https://0x7f.1/', 'private_address'],
      ['https://2130706433/', 'private_address'],
      [`https://localhost:${host.port}/`, 'private_address'],
      ['https://nothing-here.invalid/', 'unresolvable'],
      ['ftp://example.com/a.png', 'scheme'],
      ['file:///etc/passwd', 'scheme'],
      ['http://example.com/a.png', 'scheme'],
      ['https://user:pw@example.com/', 'credentials'],
      ['https://user@example.com/', 'credentials'],
      ['not a url', 'malformed'],
      ['/relative/path', 'malformed'],
    ];
    for (const [raw, reason] of cases) {
      // checkUrl refuses what it can see; a name is refused by the lookup of the probe.
      const refused = await refusal(() => probeUrl(checkUrl(raw, PUBLIC_ONLY), PUBLIC_ONLY, { timeoutMs: 2000 }));
      assert.equal(refused.reason, reason, `${raw}: ${refused.message}`);
    }
    assert.equal(host.connections(), 0, 'no refused URL was connected to');
  });

  test('a literal address is refused by checkUrl itself; a name only at its lookup', async () => {
    assert.throws(() => checkUrl('https://10.0.0.5/a.png', PUBLIC_ONLY), {
      reason: 'private_address',
      message: 'should be a public address: 10.0.0.5 is private',
    });
    assert.throws(() => checkUrl('ftp://example.com/', PUBLIC_ONLY), { reason: 'scheme', message: 'should be an https URL, not ftp:' });
    const url = checkUrl(`https://localhost:${host.port}/`, PUBLIC_ONLY);
    const refused = await refusal(() => fetchUrl(url, PUBLIC_ONLY, { maxBytes: 100 }));
    assert.equal(refused.reason, 'private_address');
    assert.match(refused.message, /^should be a public address: localhost resolves to (127\.0\.0\.1|::1), which is private$/);
  });

  test('a URL that skipped checkUrl is still judged', async () => {
    const refused = await refusal(() => probeUrl(new URL(`https://127.0.0.1:${host.port}/`), PUBLIC_ONLY));
    assert.equal(refused.reason, 'private_address');
    assert.equal(host.connections(), 0);
  });
});

describe('refusals that hold even with private addresses allowed', () => {
  test('public addresses still need https; other schemes and credentials stay refused', () => {
    assert.throws(() => checkUrl('http://8.8.8.8/a.png', PRIVATE_TOO), {
      reason: 'scheme',
      message: 'should be an https URL: plain http is allowed only to private addresses, and 8.8.8.8 is public',
    });
    assert.throws(() => checkUrl('http://[2606:4700::1111]/', PRIVATE_TOO), { reason: 'scheme' });
    assert.throws(() => checkUrl('ftp://127.0.0.1/', PRIVATE_TOO), { reason: 'scheme' });
    assert.throws(() => checkUrl('http://user:pw@127.0.0.1/', PRIVATE_TOO), { reason: 'credentials' });
    assert.equal(checkUrl('http://127.0.0.1:8080/a.png', PRIVATE_TOO).href, 'http://127.0.0.1:8080/a.png');
    assert.equal(checkUrl('http://10.0.0.5/a.png', PRIVATE_TOO).hostname, '10.0.0.5');
    assert.equal(checkUrl('https://example.com/a.png', PUBLIC_ONLY).hostname, 'example.com');
  });
});

describe('probing and fetching (private addresses allowed)', { timeout: 10_000 }, () => {
  const file = randomBytes(1024 * 1024 + 7);
  const methods: string[] = [];
  let host: Listening;
  before(async () => {
    host = await listen(
      http.createServer((request, response) => {
        const path = request.url ?? '/';
        methods.push(`${request.method} ${path}`);
        const redirect = (location: string) => {
          response.writeHead(302, { location });
          response.end();
        };
        if (path === '/file') {
          response.writeHead(200, { 'content-type': 'Application/Octet-Stream; charset=binary', 'content-length': file.length });
          return response.end(request.method === 'HEAD' ? undefined : file);
        }
        if (path === '/untyped') {
          response.removeHeader('content-type');
          return response.end('no type');
        }
        if (path === '/r1') return redirect('/r2');
        if (path === '/r2') return redirect(`http://127.0.0.1:${host.port}/r3`);
        if (path === '/r3') return redirect('/file');
        if (path.startsWith('/loop/')) {
          // /loop/n redirects until /loop/6.
          const n = Number(path.slice('/loop/'.length));
          if (n < 6) return redirect(`/loop/${n + 1}`);
          response.writeHead(200, { 'content-type': 'text/plain' });
          return response.end('end of the loop');
        }
        if (path === '/to-ftp') return redirect('ftp://127.0.0.1/file');
        if (path === '/to-credentials') return redirect(`http://user:pw@127.0.0.1:${host.port}/file`);
        if (path === '/to-public-http') return redirect('http://8.8.8.8/file');
        if (path === '/chunked') {
          // No Content-Length: only counting the bytes finds the limit.
          response.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let i = 0; i < 16; i++) response.write(file.subarray(i * 65_536, (i + 1) * 65_536));
          return response.end();
        }
        if (path === '/stalls') {
          response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1000 });
          return response.write(file.subarray(0, 10)); // and nothing more
        }
        if (path === '/cut') {
          response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 1000 });
          response.write(file.subarray(0, 10));
          return setTimeout(() => response.socket?.destroy(), 20);
        }
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('not found');
      }),
    );
  });
  after(() => host.close());

  test('probe returns the media type (lower-cased, without parameters) and the length, from a HEAD', async () => {
    methods.length = 0;
    const probe = await probeUrl(checkUrl(`${host.origin}/file`, PRIVATE_TOO), PRIVATE_TOO);
    assert.deepEqual(methods, ['HEAD /file']);
    assert.equal(probe.contentType, 'application/octet-stream');
    assert.equal(probe.contentLength, file.length);
    assert.equal(probe.finalUrl.href, `${host.origin}/file`);
    const untyped = await probeUrl(new URL(`${host.origin}/untyped`), PRIVATE_TOO);
    assert.equal(untyped.contentType, null);
  });

  test('a redirect chain is followed, relative and absolute', async () => {
    methods.length = 0;
    const probe = await probeUrl(new URL(`${host.origin}/r1`), PRIVATE_TOO);
    assert.deepEqual(methods, ['HEAD /r1', 'HEAD /r2', 'HEAD /r3', 'HEAD /file']);
    assert.equal(probe.finalUrl.href, `${host.origin}/file`);
    assert.equal(probe.contentLength, file.length);
    const fetched = await fetchUrl(new URL(`${host.origin}/r1`), PRIVATE_TOO, { maxBytes: file.length });
    assert.ok((await drain(fetched.body)).bytes.equals(file));
  });

  test('five redirects are followed, a sixth is not', async () => {
    assert.equal((await probeUrl(new URL(`${host.origin}/loop/1`), PRIVATE_TOO)).finalUrl.pathname, '/loop/6');
    const tooMany = await failure(() => probeUrl(new URL(`${host.origin}/loop/0`), PRIVATE_TOO), FetchFailed);
    assert.equal(tooMany.statusCode, 302);
  });

  test('a redirect to a refused URL is refused', async () => {
    const toFtp = await refusal(() => probeUrl(new URL(`${host.origin}/to-ftp`), PRIVATE_TOO));
    assert.equal(toFtp.reason, 'scheme');
    assert.equal(toFtp.message, 'should be an https URL, not ftp: (it redirects to ftp://127.0.0.1/file)');
    assert.equal((await refusal(() => fetchUrl(new URL(`${host.origin}/to-credentials`), PRIVATE_TOO, { maxBytes: 10 }))).reason, 'credentials');
    assert.equal((await refusal(() => probeUrl(new URL(`${host.origin}/to-public-http`), PRIVATE_TOO))).reason, 'scheme');
  });

  test('fetchUrl streams the body byte for byte', async () => {
    const fetched = await fetchUrl(new URL(`${host.origin}/file`), PRIVATE_TOO, { maxBytes: file.length });
    assert.equal(fetched.contentType, 'application/octet-stream');
    assert.equal(fetched.contentLength, file.length);
    const { bytes, error } = await drain(fetched.body);
    assert.equal(error, null);
    assert.ok(bytes.equals(file));
  });

  test('a body without Content-Length errors with TooLarge once it passes maxBytes', async () => {
    const fetched = await fetchUrl(new URL(`${host.origin}/chunked`), PRIVATE_TOO, { maxBytes: 100_000 });
    assert.equal(fetched.contentLength, null);
    const { bytes, error } = await drain(fetched.body);
    assert.ok(error instanceof TooLarge, String(error));
    assert.equal(error.limit, 100_000);
    assert.ok(bytes.length <= 100_000, `${bytes.length} bytes passed`);
    assert.ok(bytes.equals(file.subarray(0, bytes.length)));
    const exact = await fetchUrl(new URL(`${host.origin}/chunked`), PRIVATE_TOO, { maxBytes: 16 * 65_536 });
    assert.equal((await drain(exact.body)).bytes.length, 16 * 65_536, 'exactly maxBytes passes');
  });

  test('a Content-Length over maxBytes is TooLarge at once', async () => {
    const tooLarge = await failure(() => fetchUrl(new URL(`${host.origin}/file`), PRIVATE_TOO, { maxBytes: file.length - 1 }), TooLarge);
    assert.equal(tooLarge.limit, file.length - 1);
  });

  test('a 404 is FetchFailed with its status', async () => {
    const notFound = await failure(() => fetchUrl(new URL(`${host.origin}/missing`), PRIVATE_TOO, { maxBytes: 100 }), FetchFailed);
    assert.equal(notFound.statusCode, 404);
    assert.equal((await failure(() => probeUrl(new URL(`${host.origin}/missing`), PRIVATE_TOO), FetchFailed)).statusCode, 404);
  });

  test('a body that stops, or is cut off, errors with FetchFailed', async () => {
    const stalls = await fetchUrl(new URL(`${host.origin}/stalls`), PRIVATE_TOO, { maxBytes: 1000, timeoutMs: 200 });
    const stalled = await drain(stalls.body);
    assert.ok(stalled.error instanceof FetchFailed, String(stalled.error));
    assert.equal(stalled.bytes.length, 10);
    const cut = await drain((await fetchUrl(new URL(`${host.origin}/cut`), PRIVATE_TOO, { maxBytes: 1000 })).body);
    assert.ok(cut.error instanceof FetchFailed, String(cut.error));
    assert.equal(cut.error.statusCode, null);
  });
});

describe('servers that do not answer (private addresses allowed)', { timeout: 10_000 }, () => {
  let silent: Listening;
  before(async () => {
    // Reads what it is sent (so it sees the client hang up) and never says a word.
    silent = await listen(net.createServer((socket) => socket.resume()));
  });
  after(async () => {
    await silent.close();
  });

  test('a server that never answers times out', async () => {
    const started = Date.now();
    const probe = await failure(() => probeUrl(new URL(`${silent.origin}/`), PRIVATE_TOO, { timeoutMs: 200 }), FetchFailed);
    assert.equal(probe.statusCode, null);
    assert.equal(probe.message, 'should be a URL that answers within 200 ms');
    const fetched = await failure(() => fetchUrl(new URL(`${silent.origin}/`), PRIVATE_TOO, { maxBytes: 10, timeoutMs: 200 }), FetchFailed);
    assert.equal(fetched.statusCode, null);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });

  test('a closed port is FetchFailed without a status', async () => {
    const closed = await listen(net.createServer());
    await closed.close();
    const refused = await failure(() => probeUrl(new URL(closed.origin), PRIVATE_TOO), FetchFailed);
    assert.equal(refused.statusCode, null);
    assert.match(refused.message, /ECONNREFUSED/);
  });
});

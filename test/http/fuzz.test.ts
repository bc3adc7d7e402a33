/**
 * Issue 29 item 1: a bounded fuzzer over every `/v1` route. For each operation of the OpenAPI
 * document the server publishes (made from the routes' own request schemas), fast-check generates
 * requests from those schemas with mutations: bodies, path parameters, query strings, cursors,
 * headers and, for the upload send, multipart forms; then raw random bytes and damaged requests go
 * straight onto a socket. Every answer must be under 500, in the spec's error body with its
 * `x-request-id` when it is an error, within a timeout; the server must answer normally at the
 * end, and its heap must not have grown past a tolerance.
 *
 * Deterministic for a seed (FUZZ_SEED, printed); FUZZ_SCALE multiplies the cases per route.
 * A failing case is printed whole, to be kept as a regression test.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { useServer } from '../helpers/useServer.js';
import { STORE } from '../helpers/server.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { rawRequest } from '../helpers/rawHttp.js';
import { API_VERSIONS, LATEST_VERSION } from '../../src/versioning/versions.js';
import { arbitraryFor, cursorArbitrary, idArbitrary, weirdString, type IdPool, type Schema } from './fuzzArbitraries.js';

type Json = any;

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const CASES_PER_ROUTE = Math.round(16 * SCALE);
const RAW_CASES = Math.round(120 * SCALE);
const MULTIPART_CASES = Math.round(40 * SCALE);
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 10_000;
/** Heap growth allowed over the run, after a collection, against one after the warm-up. */
const HEAP_TOLERANCE_BYTES = 48 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Operation {
  method: string;
  /** The route as Fastify declares it: `/v1/pages/:page_id`. */
  route: string;
  params: { name: string; in: 'path' | 'query'; schema: Schema }[];
  body: Schema | null;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
}

interface Problem {
  request: string;
  answer: string;
}

/** Forces a full collection, so heap figures compare what is kept, not what is not yet swept. */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function clip(text: string, max = 600): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function describeRequest(r: FuzzRequest): string {
  const body = r.body instanceof FormData ? `multipart ${JSON.stringify([...r.body.keys()])}` : (r.body ?? '');
  return `${r.method} ${clip(r.path, 300)} ${JSON.stringify(r.headers)} ${clip(body)}`;
}

/**
 * What every answer must be: below 500, and an error in the spec's body whose request id is the
 * `x-request-id` header. Returns the problem, or null.
 */
function judge(status: number, headers: Headers, text: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (status < 400) return null;
  let body: Json;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  if (body?.object !== 'error' || body.status !== status || typeof body.code !== 'string' || typeof body.message !== 'string')
    return 'not the spec’s error body';
  if (!UUID.test(body.request_id ?? '') || headers.get('x-request-id') !== body.request_id) return 'no x-request-id matching request_id';
  return null;
}

async function send(baseUrl: string, r: FuzzRequest): Promise<{ status: number; headers: Headers; text: string } | { error: string }> {
  try {
    const response = await fetch(`${baseUrl}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { error: `${(error as Error).name}${cause ? ` (${cause})` : ''}: ${(error as Error).message}` };
  }
}

/** Runs `work` over `items`, `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

/** A JSON body as text: the generated value, or that value damaged as only text can be. */
function bodyTextArbitrary(value: fc.Arbitrary<Json>): fc.Arbitrary<string> {
  const text = value.map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 12, arbitrary: text },
    { weight: 1, arbitrary: fc.tuple(text, fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))) },
    { weight: 1, arbitrary: fc.tuple(text, fc.integer({ min: 50, max: 20_000 })).map(([t, n]) => `${'['.repeat(n)}${t}${']'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.tuple(text, fc.integer({ min: 50, max: 20_000 })).map(([t, n]) => `${'{"a":'.repeat(n)}${t}${'}'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')) },
    { weight: 1, arbitrary: fc.constantFrom('', 'null', '[]', '"x"', '\uFEFF{}', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', '1e999') },
  );
}

function headersArbitrary(token: string): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      version: fc.oneof(
        { weight: 10, arbitrary: fc.constant(LATEST_VERSION) },
        { weight: 3, arbitrary: fc.constantFrom(...API_VERSIONS) },
        { weight: 1, arbitrary: weirdString },
      ),
      versionHeader: fc.constantFrom('Notion-Version', 'Notion-Version', 'Service-Version'),
      auth: fc.oneof({ weight: 20, arbitrary: fc.constant(`Bearer ${token}`) }, { weight: 1, arbitrary: fc.string({ maxLength: 60 }) }),
      type: fc.oneof(
        { weight: 20, arbitrary: fc.constant('application/json') },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            'application/json; charset=latin1',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data',
            '',
            'application/JSON',
          ),
        },
      ),
      extra: fc.option(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), fc.stringMatching(/^[\x20-\x7e]{0,200}$/)), { freq: 4 }),
    })
    .map(({ version, versionHeader, auth, type, extra }) => {
      const headers: Record<string, string> = { authorization: auth, 'content-type': type };
      // A header value fetch refuses to send (a control character) is not a request at all.
      if (/^[\x20-\x7e]*$/.test(version)) headers[versionHeader] = version;
      if (extra && !['host', 'content-length', 'transfer-encoding', 'connection', 'authorization', 'expect', 'upgrade'].includes(extra[0]))
        headers[extra[0]] = extra[1];
      if (type === '') delete headers['content-type'];
      return headers;
    });
}

function requestArbitrary(op: Operation, pool: IdPool, components: Record<string, Schema>, token: string): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const queryParams = op.params.filter((p) => p.in === 'query');
  const pathArb = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof(
        { weight: 8, arbitrary: idArbitrary(pool.byParam[p.name] ?? pool.all) },
        { weight: p.name === 'property_id' ? 8 : 0, arbitrary: fc.constantFrom('title', 'Count', 'Tags', 'bad%20id') },
        { weight: 2, arbitrary: weirdString.map((s) => (/%|^\.+$/.test(s) ? s : encodeURIComponent(s))) },
      ),
    ),
  );
  const queryArb = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(
        p.name === 'start_cursor'
          ? cursorArbitrary(pool)
          : arbitraryFor(p.schema, components, pool, 4).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
        { freq: 2 },
      ),
    ),
    fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 10 }), weirdString), { freq: 6 }),
    fc.option(fc.constantFrom('%ZZ', 'a=%', '&&&', 'page_size=1&page_size=2', 'start_cursor[]=x', '=x'), { freq: 10 }),
  );
  const bodyArb = op.body ? fc.option(bodyTextArbitrary(arbitraryFor(op.body, components, pool)), { freq: 15 }) : fc.constant(null);
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb, headers: headersArbitrary(token) }).map(({ path, query, body, headers }) => {
    let url = op.route;
    pathParams.forEach((p, i) => {
      url = url.replace(`:${p.name}`, path[i]);
    });
    const [values, extra, raw] = [
      query.slice(0, queryParams.length) as (string | null)[],
      query[queryParams.length] as [string, string] | null,
      query.at(-1) as string | null,
    ];
    const search = new URLSearchParams();
    queryParams.forEach((p, i) => {
      if (values[i] !== null) search.append(p.name, values[i]!);
    });
    if (extra) search.append(extra[0], extra[1]);
    const qs = [search.toString(), raw].filter(Boolean).join('&');
    return { method: op.method, path: qs ? `${url}?${qs}` : url, headers, ...(body !== null && op.method !== 'GET' ? { body } : {}) };
  });
}

/** The multipart send of a file upload: forms of random parts, files and bytes. */
function multipartArbitrary(pool: IdPool, token: string): fc.Arbitrary<FuzzRequest> {
  const uploads = pool.byParam.file_upload_id ?? [];
  const part = fc.record({
    name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('file', 'part_number') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
    asFile: fc.boolean(),
    bytes: fc.uint8Array({ maxLength: 2048 }),
    filename: fc.oneof(fc.constantFrom('a.txt', 'photo.png', 'x', '../../x', 'a'.repeat(300), '😀.pdf'), fc.string({ maxLength: 20 })),
    type: fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'application/octet-stream', '', 'x/y'),
  });
  return fc
    .record({
      id: idArbitrary(uploads),
      parts: fc.array(part, { maxLength: 14 }),
      raw: fc.option(fc.uint8Array({ maxLength: 600 }), { freq: 5 }),
      boundary: fc.constantFrom('multipart/form-data; boundary=xyz', 'multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=xyz'),
    })
    .map(({ id, parts, raw, boundary }) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'Notion-Version': LATEST_VERSION };
      const path = `/v1/file_uploads/${id}/send`;
      if (raw) return { method: 'POST', path, headers: { ...headers, 'content-type': boundary }, body: `--xyz\r\n${Buffer.from(raw).toString('latin1')}` };
      const form = new FormData();
      for (const p of parts) {
        if (p.asFile) form.append(p.name, new Blob([p.bytes], { type: p.type }), p.filename);
        else form.append(p.name, Buffer.from(p.bytes.slice(0, 20)).toString('latin1'));
      }
      return { method: 'POST', path, headers, body: form };
    });
}

/** Bytes onto a socket: random ones, and real requests with bytes damaged or cut. */
function rawArbitrary(token: string, paths: readonly string[]): fc.Arbitrary<Uint8Array> {
  const valid = fc
    .tuple(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'), fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }))
    .map(([method, path, body]) => {
      const text = JSON.stringify(body) ?? '';
      return Buffer.from(
        `${method} ${path} HTTP/1.1\r\nHost: folio\r\nAuthorization: Bearer ${token}\r\nNotion-Version: ${LATEST_VERSION}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
    });
  return fc.oneof(
    fc.uint8Array({ minLength: 1, maxLength: 400 }),
    fc.tuple(valid, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 })).map(([bytes, flips]) => {
      const copy = Uint8Array.from(bytes);
      for (const [at, value] of flips) copy[at % copy.length] = value;
      return copy;
    }),
    fc.tuple(valid, fc.nat()).map(([bytes, n]) => bytes.subarray(0, 1 + (n % bytes.length))),
    fc.tuple(valid, fc.uint8Array({ maxLength: 100 })).map(([bytes, tail]) => Buffer.concat([bytes, tail])),
  );
}

/** The workspace the fuzzer works in: a page tree, a database, blocks, a comment, uploads, cursors. */
async function seedWorkspace(url: string, token: string, page: Json): Promise<IdPool> {
  const v1 = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await call<Json>(url, method, path, { token, body });
    assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const child = await v1('POST', '/v1/pages', { parent: { page_id: page.id }, properties: { title: { title: [{ text: { content: 'Child' } }] } } });
  const database = await v1('POST', '/v1/databases', {
    parent: { type: 'page_id', page_id: page.id },
    title: [{ text: { content: 'Tasks' } }],
    initial_data_source: {
      properties: { Name: { title: {} }, Count: { number: {} }, Tags: { multi_select: { options: [{ name: 'a' }] } }, When: { date: {} } },
    },
  });
  const dataSourceId: string = database.data_sources[0].id;
  const row = await v1('POST', '/v1/pages', {
    parent: { data_source_id: dataSourceId },
    properties: { Name: { title: [{ text: { content: 'Row' } }] }, Count: { number: 3 } },
  });
  const blocks = await v1('PATCH', `/v1/blocks/${page.id}/children`, {
    children: [
      { paragraph: { rich_text: [{ text: { content: 'one' } }] } },
      { toggle: { rich_text: [{ text: { content: 'two' } }], children: [{ to_do: { rich_text: [], checked: false } }] } },
      { heading_2: { rich_text: [{ text: { content: 'three' } }] } },
    ],
  });
  const comment = await v1('POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: [{ text: { content: 'Hello' } }] });
  const uploads: string[] = [];
  for (let i = 0; i < 6; i++) uploads.push((await v1('POST', '/v1/file_uploads', {})).id);
  const views: string[] = [];
  const view = await call<Json>(url, 'POST', '/v1/views', {
    token,
    body: { data_source_id: dataSourceId, database_id: database.id, name: 'All', type: 'table' },
  });
  if (view.status === 200) views.push(view.body.id);
  const cursors: string[] = [];
  const children = await v1('GET', `/v1/blocks/${page.id}/children?page_size=1`);
  if (children.next_cursor) cursors.push(children.next_cursor);
  const query = await v1('POST', `/v1/data_sources/${dataSourceId}/query`, { page_size: 1 });
  if (query.next_cursor) cursors.push(query.next_cursor);
  const search = await v1('POST', '/v1/search', { page_size: 1 });
  if (search.next_cursor) cursors.push(search.next_cursor);
  const blockIds: string[] = blocks.results.map((b: Json) => b.id);
  const pages = [page.id, child.id, row.id];
  const byParam: Record<string, string[]> = {
    page_id: pages,
    block_id: [...blockIds, ...pages],
    database_id: [database.id],
    data_source_id: [dataSourceId],
    comment_id: [comment.id],
    file_upload_id: uploads,
    view_id: views,
  };
  return { all: [...new Set(Object.values(byParam).flat())], byParam, cursors };
}

/** Each operation of the published document, with its parameters and JSON body schema. */
function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Json>(document.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const [method, op] of Object.entries<Json>(methods)) {
      operations.push({
        method: method.toUpperCase(),
        route: path.replace(/\{(\w+)\}/g, ':$1'),
        params: (op.parameters ?? []).filter((p: Json) => p.in === 'path' || p.in === 'query'),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

describe(`fuzzing every /v1 route (${STORE}, seed ${SEED})`, () => {
  const { server, fx } = useServer();
  let pool: IdPool;
  let operations: Operation[];
  let components: Record<string, Schema>;
  const problems: Problem[] = [];
  let heapBefore = 0;

  const record = (request: string, answer: string) => {
    if (problems.length < 30) problems.push({ request, answer });
  };

  const answers = new Map<string, number>();
  const check = async (r: FuzzRequest) => {
    const answer = await send(server.url, r);
    if ('error' in answer) return record(describeRequest(r), answer.error);
    let code = '';
    try {
      if (answer.status >= 400) code = (JSON.parse(answer.text) as { code?: string }).code ?? '?';
    } catch {
      code = 'not JSON';
    }
    const key = `${answer.status}${code ? ` ${code}` : ''}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
    const problem = judge(answer.status, answer.headers, answer.text);
    if (problem) record(describeRequest(r), `${problem}: ${answer.status} ${clip(answer.text, 300)}`);
  };

  before(async () => {
    const page = await makeSharedPage(server, fx, 'Fuzz root');
    pool = await seedWorkspace(server.url, fx.token, page);
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    components = document.components.schemas;
    operations = operationsOf(document);
    // A first pass of one case per route, so the figure compared is taken with caches warm.
    for (const [i, op] of operations.entries()) {
      for (const r of fc.sample(requestArbitrary(op, pool, components, fx.token), { seed: SEED + i, numRuns: 1 })) await check(r);
    }
    collectGarbage();
    heapBefore = process.memoryUsage().heapUsed;
  });

  test('the published document names every /v1 route the server registered', () => {
    const published = new Set(operations.map((op) => `${op.method} ${op.route}`));
    const registered = server.running.app.v1Routes.map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(
      registered.filter((r) => !published.has(r)),
      [],
    );
  });

  test(`schema-generated requests with mutations: ${CASES_PER_ROUTE} per route, no 5xx, every error in the spec’s body`, async (t) => {
    const started = performance.now();
    let sent = 0;
    for (const [i, op] of operations.entries()) {
      const requests = fc.sample(requestArbitrary(op, pool, components, fx.token), { seed: SEED + 1000 + i, numRuns: CASES_PER_ROUTE });
      await inPool(requests, CONCURRENCY, check);
      sent += requests.length;
    }
    const multipart = fc.sample(multipartArbitrary(pool, fx.token), { seed: SEED + 2000, numRuns: MULTIPART_CASES });
    await inPool(multipart, CONCURRENCY, check);
    sent += multipart.length;
    t.diagnostic(`${sent} requests on ${operations.length} operations in ${Math.round(performance.now() - started)} ms`);
    t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries([...answers].sort((a, b) => b[1] - a[1])))}`);
    assert.deepEqual(problems, []);
  });

  test(`random and damaged bytes on a socket: ${RAW_CASES} cases, answered under 500 or closed, never hanging`, async (t) => {
    const paths = ['/v1/users/me', '/v1/search', `/v1/pages/${pool.byParam.page_id[0]}`, `/v1/blocks/${pool.byParam.page_id[0]}/children`, '/v1/nope'];
    const cases = fc.sample(rawArbitrary(fx.token, paths), { seed: SEED + 3000, numRuns: RAW_CASES });
    const statuses = new Map<string, number>();
    await inPool(cases, CONCURRENCY, async (bytes) => {
      const answer = await rawRequest(server.url, bytes, { timeoutMs: REQUEST_TIMEOUT_MS });
      const key = answer.hung ? 'hung' : String(answer.status ?? 'closed');
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      const described = `raw ${JSON.stringify(Buffer.from(bytes).toString('latin1').slice(0, 400))}`;
      if (answer.hung) return record(described, 'no answer and no close within the timeout');
      if (answer.status === null) return;
      const problem = judge(answer.status, new Headers([...answer.headers]), answer.text);
      if (problem) record(described, `${problem}: ${answer.status} ${clip(answer.text, 300)}`);
    });
    t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
    assert.deepEqual(problems, []);
  });

  test('afterwards the server answers normally and its heap has not grown past the tolerance', async (t) => {
    const me = await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(me.status, 200);
    collectGarbage();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    t.diagnostic(`heap growth over the run: ${(growth / 1024 / 1024).toFixed(1)} MB`);
    assert.ok(growth < HEAP_TOLERANCE_BYTES, `heap grew by ${(growth / 1024 / 1024).toFixed(1)} MB`);
  });
});

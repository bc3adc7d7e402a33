/**
 * Issue 29 item 1: requests refused before a route runs (by Node's HTTP parser, by the router, by
 * the body parser) answer in the spec's error body with an `x-request-id` naming the same id, and
 * a body nested thousands of levels deep is a 400, not a 500.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { rawRequest, type RawAnswer } from '../helpers/rawHttp.js';
import { makeSharedPage } from '../helpers/factories.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { MAX_BODY_DEPTH } from '../../src/http/screenBody.js';
import { MAX_MARKDOWN_DEPTH } from '../../src/domain/markdown/split.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function assertSpecError(answer: RawAnswer, code: string, message?: string | RegExp): void {
  assert.equal(answer.hung, false, 'the server answered');
  assert.equal(answer.status, 400, answer.text);
  assert.deepEqual(Object.keys(answer.json ?? {}).sort(), ['code', 'message', 'object', 'request_id', 'status'], answer.text);
  assert.equal(answer.json.object, 'error');
  assert.equal(answer.json.status, 400);
  assert.equal(answer.json.code, code, answer.text);
  assert.match(answer.json.request_id, UUID);
  assert.equal(answer.headers.get('x-request-id'), answer.json.request_id);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  if (typeof message === 'string') assert.equal(answer.json.message, message);
  else if (message) assert.match(answer.json.message, message);
}

function nested(levels: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(levels) + leaf + close.repeat(levels);
}

describe('framework errors in the spec’s body', () => {
  const { server, fx } = useServer();
  const auth = () => `Authorization: Bearer ${fx.token}\r\nNotion-Version: ${LATEST_VERSION}\r\n`;
  // The write side stays open: a client's FIN makes Node abort a request still being served.
  const send = (text: string) => rawRequest(server.url, text, { halfClose: false });
  const get = (target: string, extra = '') => send(`GET ${target} HTTP/1.1\r\nHost: folio\r\n${auth()}${extra}Connection: close\r\n\r\n`);
  const post = (target: string, body: string, type = 'application/json') =>
    send(
      `POST ${target} HTTP/1.1\r\nHost: folio\r\n${auth()}Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );

  test('a path segment over the router’s limit (a 4,000-character page id) is invalid_request_url, not a bare 414', async () => {
    assertSpecError(await get(`/v1/pages/${'a'.repeat(4000)}`), 'invalid_request_url', 'Invalid request URL: a path segment is longer than 1000 characters.');
    // Under the limit, the route's schema names the parameter.
    assertSpecError(await get(`/v1/pages/${'a'.repeat(900)}`), 'validation_error', /^path failed validation: path\.page_id/);
  });

  test('a URL over Node’s header limit is invalid_request_url, answered for Node’s parser', async () => {
    assertSpecError(await get(`/v1/search?q=${'a'.repeat(20_000)}`), 'invalid_request_url', 'Invalid request URL: the URL is longer than 16 KB.');
  });

  test('headers over the limit are invalid_request', async () => {
    assertSpecError(await get('/v1/users/me', `X-Padding: ${'a'.repeat(20_000)}\r\n`), 'invalid_request', /larger than 16 KB/);
  });

  test('a URL that does not decode (%ZZ) is invalid_request_url', async () => {
    assertSpecError(await get('/v1/pages/%ZZ'), 'invalid_request_url', 'Invalid request URL.');
    assertSpecError(await get('/v1/blocks/%E0%A4%A/children'), 'invalid_request_url', 'Invalid request URL.');
  });

  test('a malformed request line, an unknown method and a wrong method', async () => {
    assertSpecError(await send('GARBAGE\r\n\r\n'), 'invalid_request_url');
    assertSpecError(await send('GET /v1/users/me HTTP/9.9\r\nHost: folio\r\n\r\n'), 'invalid_request', /not valid HTTP\/1\.1/);
    assertSpecError(await send(`BREW /v1/users HTTP/1.1\r\nHost: folio\r\n${auth()}\r\n`), 'invalid_request_url', 'Invalid request URL.');
    assertSpecError(await send(`PROPFIND /v1/users HTTP/1.1\r\nHost: folio\r\n${auth()}\r\n`), 'invalid_request_url', 'Invalid request URL.');
  });

  test('a Content-Length that disagrees with the body, or comes with Transfer-Encoding', async () => {
    // The bytes past the Content-Length are read as the next request, which is no request at all.
    const short = await send(`POST /v1/search HTTP/1.1\r\nHost: folio\r\n${auth()}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{"query":"x"}`);
    assert.equal(short.hung, false);
    assert.ok(short.status !== null && short.status < 500, short.text);
    assert.equal(short.headers.get('x-request-id'), short.json.request_id);
    assertSpecError(
      await send(
        `POST /v1/search HTTP/1.1\r\nHost: folio\r\n${auth()}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      ),
      'invalid_request',
      /Content-Length or Transfer-Encoding/,
    );
    assertSpecError(
      await send(`POST /v1/search HTTP/1.1\r\nHost: folio\r\n${auth()}Content-Type: application/json\r\nContent-Length: -5\r\n\r\n{}`),
      'invalid_request',
      /Content-Length or Transfer-Encoding/,
    );
  });

  test('an HTTP/1.1 request without Host', async () => {
    assertSpecError(await send(`GET /v1/users/me HTTP/1.1\r\n${auth()}\r\n`), 'invalid_request', /Host header/);
    // HTTP/1.0 needs none.
    const old = await send(`GET /v1/users/me HTTP/1.0\r\n${auth()}\r\n`);
    assert.equal(old.status, 200, old.text);
  });

  test('an unsupported media type and a body over the limit on a v1 route', async () => {
    assertSpecError(await post('/v1/search', 'query=x', 'text/plain'), 'invalid_request', 'Unsupported request: the content type must be application/json.');
    assertSpecError(await post('/v1/search', JSON.stringify({ query: 'x'.repeat(600 * 1024) })), 'validation_error', /500KB/);
  });

  test('an unknown path and a wrong method carry the request id too', async () => {
    assertSpecError(await get('/v1/nope'), 'invalid_request_url', 'Invalid request URL.');
    assertSpecError(await send(`PUT /v1/users/me HTTP/1.1\r\nHost: folio\r\n${auth()}Content-Length: 0\r\nConnection: close\r\n\r\n`), 'invalid_request_url');
  });

  describe('deeply nested bodies', () => {
    const deepMessage = new RegExp(`should be nested at most ${MAX_BODY_DEPTH} levels deep, instead was deeper\\.$`);

    test('5,000 and 80,000 levels of arrays or objects are a validation_error naming where, on every plane', async () => {
      for (const levels of [MAX_BODY_DEPTH + 1, 5000, 80_000]) {
        for (const body of [nested(levels, '[', ']'), nested(levels, '{"a":', '}')]) {
          for (const target of ['/v1/search', '/v1/pages', `/v1/blocks/${randomUUID()}/children`, '/v1/nope']) {
            const answer = await post(target, body);
            assertSpecError(answer, 'validation_error', deepMessage);
            assert.match(answer.json.message, body.startsWith('[') ? /^body failed validation: body\[0\]\[0\]/ : /^body failed validation: body\.a\.a/);
          }
          const admin = await call(server.url, 'POST', '/admin/v1/workspaces', { token: server.adminToken, version: null, rawBody: body });
          assert.equal(admin.status, 400);
          assert.match(String((admin.body as { message: string }).message), deepMessage);
        }
      }
    });

    test('a body exactly at the limit is read and validated as usual', async () => {
      const answer = await post('/v1/search', `{"query":"x","filter":${nested(MAX_BODY_DEPTH - 1, '[', ']', '')}}`);
      assertSpecError(answer, 'validation_error', /^body failed validation: body\.filter should be an object/);
    });

    test('deep rich text and block children inside a real request', async () => {
      const page = await makeSharedPage(server, fx);
      // Written as text: JSON.stringify itself recurses.
      const leaf = '{"paragraph":{"rich_text":[{"text":{"content":"x"}}]}}';
      const deepChildren = (levels: number) => `{"children":[${nested(levels, '{"paragraph":{"rich_text":[],"children":[', ']}}', leaf)}]}`;
      for (const levels of [3, 40, 3000]) {
        const res = await call<any>(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, { token: fx.token, rawBody: deepChildren(levels) });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.code, 'validation_error');
      }
      const res = await call<any>(server.url, 'POST', '/v1/pages', {
        token: fx.token,
        rawBody: `{"parent":{"page_id":"${page.id}"},"properties":{"title":{"title":[{"text":{"content":${nested(6000, '[', ']')}}}]}}}`,
      });
      assert.equal(res.status, 400);
      assert.match(res.body.message, deepMessage);
    });
  });

  test('markdown nested past the depth limit is a validation_error naming the field, before any walk of its tree', async () => {
    const page = await makeSharedPage(server, fx, 'Markdown depth');
    const list = (levels: number) => Array.from({ length: levels }, (_, i) => `${'\t'.repeat(i)}- item ${i}`).join('\n');
    const deep = await call<any>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: page.id }, markdown: list(MAX_MARKDOWN_DEPTH + 50) },
    });
    assert.equal(deep.status, 400, JSON.stringify(deep.body));
    assert.equal(deep.body.code, 'validation_error');
    assert.match(deep.body.message, new RegExp(`^body failed validation: body\\.markdown .*nested more than ${MAX_MARKDOWN_DEPTH} levels deep`));
    const edit = await call<any>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'replace_content', replace_content: { new_str: list(MAX_MARKDOWN_DEPTH + 1) } },
    });
    assert.equal(edit.status, 400, JSON.stringify(edit.body));
    assert.match(edit.body.message, /body\.replace_content\.new_str .*nested more than/);
    const shallow = await call<any>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: page.id }, markdown: list(5) } });
    assert.equal(shallow.status, 200, JSON.stringify(shallow.body));
  });

  test('markdown dense with emphasis or link delimiters is refused before micromark pairs them (141 s for 40 KB before)', async () => {
    const page = await makeSharedPage(server, fx, 'Markdown delimiters');
    const cases: [string, string, unknown, RegExp][] = [
      [
        'POST',
        '/v1/pages',
        { parent: { page_id: page.id }, markdown: `${'*'.repeat(20_000)}x${'*'.repeat(20_000)}` },
        /body\.markdown .*more than 1000 `\*` and `_`/,
      ],
      [
        'POST',
        '/v1/pages',
        { parent: { page_id: page.id }, markdown: `${'**_'.repeat(5000)}x${'_**'.repeat(5000)}` },
        /body\.markdown .*more than 1000 `\*` and `_`/,
      ],
      ['POST', '/v1/pages', { parent: { page_id: page.id }, markdown: `${'['.repeat(20_000)}x${']'.repeat(20_000)}` }, /body\.markdown .*more than 1000 `\[`/],
    ];
    for (const [method, path, body, message] of cases) {
      const started = performance.now();
      const res = await call<any>(server.url, method, path, { token: fx.token, body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'validation_error');
      assert.match(res.body.message, message);
      assert.ok(performance.now() - started < 5000, `answered in ${Math.round(performance.now() - started)} ms`);
    }
    // A comment's markdown is read by a fast path first; either way it answers at once.
    const started = performance.now();
    const comment = await call<any>(server.url, 'POST', '/v1/comments', {
      token: fx.token,
      body: { parent: { page_id: page.id }, markdown: `${'**_'.repeat(3000)}x${'_**'.repeat(3000)}` },
    });
    assert.ok(comment.status === 200 || comment.body.code === 'validation_error', JSON.stringify(comment.body).slice(0, 300));
    assert.ok(performance.now() - started < 5000);
    // In a code block the same characters are text, never paired.
    const code = await call<any>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: page.id }, markdown: `\`\`\`\n${'*'.repeat(1500)}\n\`\`\`` },
    });
    assert.equal(code.status, 200, JSON.stringify(code.body));
  });

  test('the server still answers normally afterwards', async () => {
    const res = await call(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(res.status, 200);
  });
});

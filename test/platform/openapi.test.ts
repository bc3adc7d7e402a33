/**
 * Issue 26 item 1: the OpenAPI 3.1 document generated from the route schemas, served at
 * /openapi.json, valid by a maintained validator, describing every `/v1` route with its request
 * and response schemas, its security and error responses; Swagger UI at /docs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '@readme/openapi-parser';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';

type Json = Record<string, any>;

describe('OpenAPI and the reference page', () => {
  const { server, fx } = useServer();
  const document = async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    return (await res.json()) as Json;
  };

  test('the document is valid OpenAPI 3.1', async () => {
    const doc = await document();
    assert.equal(doc.openapi, '3.1.0');
    const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
    assert.ok(result.valid, JSON.stringify(result));
  });

  test('every /v1 route is described: its method, a success schema, the error responses, bearer security and the version header', async () => {
    const doc = await document();
    const routes = server.running.app.v1Routes;
    assert.ok(routes.length >= 30, `${routes.length} routes`);
    const undescribed = routes.filter((r) => !r.response).map((r) => `${r.method} ${r.url}`);
    assert.deepEqual(undescribed, [], 'a route without config.response has no described answer');
    for (const route of routes) {
      const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      assert.ok(operation, `${route.method} ${path} is in the document`);
      const success = operation.responses['200'] ?? operation.responses['202'];
      assert.ok(success?.content?.['application/json']?.schema, `${route.method} ${path} describes its answer`);
      for (const status of ['400', '401', '404', '429']) assert.ok(operation.responses[status], `${route.method} ${path} answers ${status}`);
      assert.ok(
        operation.parameters?.some((p: Json) => p.in === 'header' && p.name === 'Notion-Version'),
        `${route.method} ${path} names the version header`,
      );
    }
    assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    assert.ok(
      Object.keys(doc.paths).every((p) => p.startsWith('/v1/')),
      'only the Content API',
    );
  });

  test('a request built from the document works against the server it names', async () => {
    const doc = await document();
    const base = doc.servers[0].url;
    assert.ok(doc.paths['/v1/users/me'].get);
    const me = await call<Json>(base, 'GET', '/v1/users/me', { token: fx.token, version: LATEST_VERSION });
    assert.equal(me.status, 200);
  });

  test('?version= names the newest version only; another is refused naming the field', async () => {
    assert.equal((await fetch(`${server.url}/openapi.json?version=${LATEST_VERSION}`)).status, 200);
    const older = await call<Json>(server.url, 'GET', '/openapi.json?version=2022-06-28', { version: null });
    assert.equal(older.status, 400);
    assert.equal(older.body.code, 'validation_error');
    assert.match(older.body.message, /version/);
  });

  test('/docs serves the interactive reference on this document', async () => {
    const page = await fetch(`${server.url}/docs/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /swagger-ui/i);
    const spec = await fetch(`${server.url}/docs/json`);
    assert.equal(spec.status, 200);
    assert.deepEqual(Object.keys(((await spec.json()) as Json).paths).sort(), Object.keys((await document()).paths).sort());
  });
});

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
import { STORE } from '../helpers/server.js';
import { makeSharedPage } from '../helpers/factories.js';
import { Ajv } from 'ajv';
import { API_VERSIONS, LATEST_VERSION } from '../../src/versioning/versions.js';
import { VersionEngine } from '../../src/versioning/engine.js';

type Json = Record<string, any>;

/** A document without what names its version: equal for versions whose shapes are equal. */
function shapes(doc: Json): string {
  return JSON.stringify(doc, (key, value) =>
    key === 'default' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? '' : key === 'info' ? null : value,
  );
}

describe('OpenAPI and the reference page', () => {
  const { server, fx } = useServer();
  const document = async (version?: string) => {
    const res = await fetch(`${server.url}/openapi.json${version ? `?version=${version}` : ''}`);
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
    const engine = new VersionEngine();
    const byVersion = new Map<string, Json>([[LATEST_VERSION, doc]]);
    for (const route of routes) {
      const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
      // A route the newest version removed is described by the versions that serve it.
      const version = [...API_VERSIONS].reverse().find((v) => !engine.isAbsent(v, `${route.method} ${route.url}`))!;
      if (!byVersion.has(version)) byVersion.set(version, await document(version));
      const operation = byVersion.get(version)!.paths[path]?.[route.method.toLowerCase()];
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

  test('every version has its document, naming its version as the header default; an unknown version is refused naming the field', async () => {
    assert.deepEqual(await document(LATEST_VERSION), await document());
    for (const version of API_VERSIONS) {
      const doc = await document(version);
      assert.equal(doc.openapi, '3.1.0');
      const header = doc.paths['/v1/users/me'].get.parameters.find((p: Json) => p.name === 'Notion-Version');
      assert.equal(header.schema.default, version);
      assert.match(doc.info.description, new RegExp(version));
    }
    const unknown = await call<Json>(server.url, 'GET', '/openapi.json?version=2024-01-01', { version: null });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'validation_error');
    assert.match(unknown.body.message, /query\.version/);
  });

  // The documents come from the route schemas and the version modules, never from the store, and
  // validating one takes seconds: checked on the SQLite run only.
  test('every version’s document is valid OpenAPI 3.1', { skip: STORE === 'postgres' && 'the documents do not depend on the store' }, async () => {
    // Versions whose documents differ only in naming their version share the check (the newest is the first test's).
    const validated = new Set<string>([shapes(await document())]);
    for (const version of API_VERSIONS) {
      const doc = await document(version);
      if (validated.has(shapes(doc))) continue;
      const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
      assert.ok(result.valid, `${version}: ${JSON.stringify(result)}`);
      validated.add(shapes(doc));
    }
    assert.ok(validated.size >= 5, `${validated.size} distinct documents`);
  });

  test('each version lists the paths that exist at it', async () => {
    const has = (doc: Json, method: string, path: string) => Boolean(doc.paths[path]?.[method]);
    const newest = await document();
    assert.ok(has(newest, 'post', '/v1/data_sources/{data_source_id}/query'));
    assert.ok(has(newest, 'get', '/v1/views'));
    assert.ok(!has(newest, 'post', '/v1/databases/{database_id}/query'), 'removed at 2025-09-03');
    const before = await document('2022-06-28');
    assert.ok(has(before, 'post', '/v1/databases/{database_id}/query'));
    assert.ok(!Object.keys(before.paths).some((p) => p.startsWith('/v1/data_sources') || p.startsWith('/v1/views')), 'added at 2025-09-03');
    assert.ok(has(before, 'get', '/v1/pages/{page_id}'));
    const split = await document('2025-09-03');
    assert.ok(has(split, 'get', '/v1/data_sources/{data_source_id}') && !has(split, 'post', '/v1/databases/{database_id}/query'));
  });

  test('the response schemas that differ between versions are described as each version answers', async () => {
    const success = (doc: Json, method: string, path: string) => {
      const responses = doc.paths[path][method].responses;
      return (responses['200'] ?? responses['202']).content['application/json'].schema;
    };
    const newest = await document();
    const page = (doc: Json) => success(doc, 'get', '/v1/pages/{page_id}');
    assert.ok(!('archived' in page(newest).properties));
    const at0903 = await document('2025-09-03');
    assert.ok(page(at0903).required.includes('archived'), 'archived beside in_trash before 2026-03-11');
    assert.deepEqual(Object.keys(page(at0903).properties).indexOf('archived') + 1, Object.keys(page(at0903).properties).indexOf('in_trash'));
    const database = (doc: Json) => success(doc, 'get', '/v1/databases/{database_id}');
    assert.ok('data_sources' in database(at0903).properties && !('properties' in database(at0903).properties));
    const at0628 = await document('2022-06-28');
    assert.ok(!('data_sources' in database(at0628).properties) && 'properties' in database(at0628).properties, 'a database carried its properties');
    const parentTypes = (schema: Json) => schema.properties.parent.anyOf.map((v: Json) => v.properties.type.enum[0]);
    assert.ok(parentTypes(page(at0903)).includes('data_source_id'));
    assert.ok(!parentTypes(page(at0628)).includes('data_source_id'), 'pages in a database had a database_id parent');
    const search = success(at0628, 'post', '/v1/search');
    assert.ok('page_or_database' in search.properties && !('page_or_data_source' in search.properties));
    assert.ok(search.properties.results.items.anyOf.some((v: Json) => v.properties.object.enum[0] === 'database'));
    const block = (doc: Json) => success(doc, 'get', '/v1/blocks/{block_id}');
    assert.ok('parent' in block(at0628).properties);
    const at0222 = await document('2022-02-22');
    assert.ok(!('parent' in block(at0222).properties), 'blocks gained parent at 2022-06-28');
    assert.ok(!parentTypes(page(at0222)).includes('block_id'), 'a page in a block named its page');
    const append = (doc: Json) => success(doc, 'patch', '/v1/blocks/{block_id}/children');
    assert.equal(append(at0222).properties.object.enum[0], 'list');
    const at0513 = await document('2021-05-13');
    assert.equal(append(at0513).properties.object.enum[0], 'block', 'append answered the parent block before 2021-08-16');
  });

  test('the request schemas that differ between versions are described as each version takes them', async () => {
    const body = (doc: Json, method: string, path: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    const newest = await document();
    const at0903 = await document('2025-09-03');
    const append = '/v1/blocks/{block_id}/children';
    assert.ok(!('after' in body(newest, 'patch', append).properties) && 'after' in body(at0903, 'patch', append).properties);
    assert.ok(
      !('archived' in body(newest, 'patch', '/v1/pages/{page_id}').properties) && 'archived' in body(at0903, 'patch', '/v1/pages/{page_id}').properties,
    );
    const at0628 = await document('2022-06-28');
    assert.ok('initial_data_source' in body(at0903, 'post', '/v1/databases').properties);
    assert.ok('properties' in body(at0628, 'post', '/v1/databases').properties && !('initial_data_source' in body(at0628, 'post', '/v1/databases').properties));
    assert.deepEqual(body(at0628, 'post', '/v1/search').properties.filter.properties.value.enum, ['page', 'database']);
    const mentions = (doc: Json, pattern: RegExp) => pattern.test(JSON.stringify(doc));
    assert.ok(mentions(newest, /"paragraph":\{[^{}]*"properties":\{"rich_text"/) && !mentions(newest, /"paragraph":\{[^{}]*"properties":\{"text"/));
    const at0816 = await document('2021-08-16');
    assert.ok(
      mentions(at0816, /"paragraph":\{[^{}]*"properties":\{"text"/) && !mentions(at0816, /"paragraph":\{[^{}]*"properties":\{"rich_text"/),
      'blocks took text before 2022-02-22',
    );
    assert.ok(mentions(newest, /"meeting_notes":\{/) && !mentions(at0903, /"meeting_notes":\{/) && mentions(at0903, /"transcription":\{/));
  });

  test('what the server answers at an older version fits that version’s document', async () => {
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const page = await makeSharedPage(server, fx);
    const db = await call<Json>(server.url, 'POST', '/v1/databases', {
      token: fx.token,
      body: { parent: { page_id: page.id }, initial_data_source: { properties: { Name: { title: {} } } } },
    });
    assert.equal(db.status, 200);
    const row = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { database_id: db.body.id }, properties: { Name: { title: [{ text: { content: 'Row' } }] } } },
    });
    assert.equal(row.status, 200);
    const first = await call<Json>(server.url, 'PATCH', `/v1/blocks/${page.id}/children`, { token: fx.token, body: { children: [{ divider: {} }] } });
    assert.equal(first.status, 200);
    const calls: Array<[string, string, string, string, unknown?]> = [
      ['2022-06-28', 'post', '/v1/databases', '/v1/databases', { parent: { page_id: page.id }, properties: { Name: { title: {} } } }],
      [
        '2025-09-03',
        'patch',
        '/v1/blocks/{block_id}/children',
        `/v1/blocks/${page.id}/children`,
        { children: [{ divider: {} }], after: first.body.results[0].id },
      ],
      ['2025-09-03', 'patch', '/v1/pages/{page_id}', `/v1/pages/${row.body.id}`, { archived: false }],
      ['2022-06-28', 'get', '/v1/databases/{database_id}', `/v1/databases/${db.body.id}`],
      ['2022-06-28', 'get', '/v1/pages/{page_id}', `/v1/pages/${row.body.id}`],
      ['2022-06-28', 'post', '/v1/databases/{database_id}/query', `/v1/databases/${db.body.id}/query`, {}],
      ['2022-06-28', 'post', '/v1/search', '/v1/search', {}],
      ['2022-02-22', 'patch', '/v1/blocks/{block_id}/children', `/v1/blocks/${page.id}/children`, { children: [{ paragraph: { rich_text: [] } }] }],
      ['2021-05-13', 'patch', '/v1/blocks/{block_id}/children', `/v1/blocks/${page.id}/children`, { children: [{ paragraph: { text: [] } }] }],
      ['2025-09-03', 'get', '/v1/pages/{page_id}', `/v1/pages/${row.body.id}`],
      ['2025-09-03', 'get', '/v1/data_sources/{data_source_id}', `/v1/data_sources/${db.body.data_sources[0].id}`],
    ];
    for (const [version, method, path, url, body] of calls) {
      const doc = await document(version);
      const responses = doc.paths[path][method].responses;
      const schema = { ...(responses['200'] ?? responses['202']).content['application/json'].schema, components: doc.components };
      if (body !== undefined) {
        const takes = ajv.compile({ ...doc.paths[path][method].requestBody.content['application/json'].schema, components: doc.components });
        assert.ok(takes(body), `${version} ${method} ${path} request: ${JSON.stringify(takes.errors)}`);
      }
      const res = await call<Json>(server.url, method.toUpperCase(), url, { token: fx.token, version, body });
      assert.equal(res.status, 200, `${version} ${method} ${url}: ${JSON.stringify(res.body)}`);
      const check = ajv.compile(schema);
      assert.ok(check(res.body), `${version} ${method} ${path}: ${JSON.stringify(check.errors)}\n${JSON.stringify(res.body).slice(0, 600)}`);
      // The newest document must not fit where the shapes differ, or this check proves nothing.
    }
  });

  test('/docs serves the interactive reference on this document', async () => {
    const page = await fetch(`${server.url}/docs/`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await page.text(), /swagger-ui/i);
    const spec = await fetch(`${server.url}/docs/json`);
    assert.equal(spec.status, 200);
    assert.deepEqual(Object.keys(((await spec.json()) as Json).paths).sort(), Object.keys((await document()).paths).sort());
    // Its top bar offers each version's document.
    const initializer = await (await fetch(`${server.url}/docs/static/swagger-initializer.js`)).text();
    for (const version of API_VERSIONS) assert.ok(initializer.includes(`json?version=${version}`), version);
    const older = (await (await fetch(`${server.url}/docs/json?version=2022-06-28`)).json()) as Json;
    assert.deepEqual(older, await document('2022-06-28'));
  });
});

/**
 * The version engine (src/versioning/engine.ts) on synthetic change modules: requests walk
 * forward oldest change first, responses walk back newest first, the newest version is untouched,
 * and the generated changelog is what docs/changelog.md says.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';
import { VersionEngine } from '../../src/versioning/engine.js';
import { mapObjects } from '../../src/versioning/mapObjects.js';
import type { VersionChange, VersionedRequest } from '../../src/versioning/change.js';
import { API_VERSIONS, LATEST_VERSION, type ApiVersion } from '../../src/versioning/versions.js';
import { VERSION_CHANGES } from '../../src/versioning/changes/index.js';

const ROUTE = 'GET /v1/things/:id';

/** A change that records when its converters run and tags what passes through them. */
function change(version: ApiVersion, name: string, log: string[]): VersionChange {
  return {
    version,
    description: `Change ${name}.`,
    upgradeRequest(request) {
      log.push(`up ${name}`);
      (request.body as { trail: string[] }).trail.push(name);
    },
    downgradeResponse({ route, body }) {
      log.push(`down ${name}`);
      assert.equal(route, ROUTE);
      return { ...(body as object), trail: [...(body as { trail: string[] }).trail, name] };
    },
  };
}

function request(): VersionedRequest {
  return { route: ROUTE, body: { trail: [] }, query: {}, params: {} };
}

describe('VersionEngine', () => {
  // Registered out of order on purpose: the engine orders by version, keeping registration order
  // among changes of the same version.
  const log: string[] = [];
  const engine = new VersionEngine([
    change('2025-09-03', 'D', log),
    change('2021-05-13', 'A', log),
    change('2026-03-11', 'E', log),
    change('2022-02-22', 'B', log),
    change('2022-02-22', 'C', log),
  ]);

  test('requests are upgraded oldest change first, from the caller’s version to the newest', () => {
    log.length = 0;
    const req = request();
    engine.upgradeRequest('2021-05-11', req);
    assert.deepEqual((req.body as { trail: string[] }).trail, ['A', 'B', 'C', 'D', 'E']);
    assert.deepEqual(log, ['up A', 'up B', 'up C', 'up D', 'up E']);
  });

  test('responses are downgraded newest change first, each converter seeing the previous one’s output', () => {
    log.length = 0;
    const body = engine.downgradeResponse('2021-05-11', ROUTE, { trail: [] });
    assert.deepEqual(body, { trail: ['E', 'D', 'C', 'B', 'A'] });
    assert.deepEqual(log, ['down E', 'down D', 'down C', 'down B', 'down A']);
  });

  test('a caller only gets the changes after its version', () => {
    log.length = 0;
    const req = request();
    engine.upgradeRequest('2022-02-22', req);
    assert.deepEqual((req.body as { trail: string[] }).trail, ['D', 'E']);
    assert.deepEqual(engine.downgradeResponse('2022-06-28', ROUTE, { trail: [] }), { trail: ['E', 'D'] });
    assert.deepEqual(engine.downgradeResponse('2025-09-03', ROUTE, { trail: [] }), { trail: ['E'] });
    assert.deepEqual(
      engine.pending('2021-05-13').map((c) => c.description),
      ['Change B.', 'Change C.', 'Change D.', 'Change E.'],
    );
  });

  test('a caller at the newest version gets no conversion at all', () => {
    log.length = 0;
    const req = request();
    engine.upgradeRequest(LATEST_VERSION, req);
    const original = { trail: [] };
    const body = engine.downgradeResponse(LATEST_VERSION, ROUTE, original);
    assert.equal(body, original);
    assert.deepEqual((req.body as { trail: string[] }).trail, []);
    assert.deepEqual(log, []);
    assert.deepEqual(engine.pending(LATEST_VERSION), []);
  });

  test('converters are optional on each side', () => {
    const onlyUp = new VersionEngine([{ version: '2022-06-28', description: 'Request only.', upgradeRequest: (r) => void (r.query.seen = true) }]);
    const req = request();
    onlyUp.upgradeRequest('2021-05-11', req);
    assert.equal(req.query.seen, true);
    assert.deepEqual(onlyUp.downgradeResponse('2021-05-11', ROUTE, { a: 1 }), { a: 1 });
  });

  test('a change of an unknown version is refused', () => {
    assert.throws(() => new VersionEngine([{ version: '2024-01-01' as ApiVersion, description: 'Nope.' }]), /unknown version 2024-01-01/);
  });

  test('the changelog lists every version newest first, with the changes of each', () => {
    const text = engine.changelog();
    const headings = [...text.matchAll(/^## (\S+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, [...API_VERSIONS].reverse());
    const section = (version: string) => text.split(`## ${version}\n`)[1].split('\n## ')[0];
    assert.match(section('2022-02-22'), /- Change B\.\n- Change C\./);
    assert.match(section('2022-06-28'), /No change modelled by Folio/);
    assert.match(section('2021-05-11'), /The first public version/);
  });
});

describe('mapObjects', () => {
  const body = {
    object: 'list',
    results: [
      { object: 'page', id: '1', parent: { type: 'workspace', workspace: true }, properties: { t: { id: 'title', title: [{ type: 'text' }] } } },
      { object: 'data_source', id: '2', nested: [{ object: 'user', id: 'u' }], n: null },
      'text',
      3,
    ],
    next_cursor: null,
  };

  test('visits every API object, innermost first, and rebuilds the rest unchanged', () => {
    const seen: string[] = [];
    const out = mapObjects(body, (obj) => {
      seen.push(`${String(obj.object)}:${String(obj.id ?? '')}`);
      return { ...obj, visited: true };
    }) as any;
    assert.deepEqual(seen, ['page:1', 'user:u', 'data_source:2', 'list:']);
    assert.equal(out.visited, true);
    assert.equal(out.results[0].visited, true);
    assert.equal(out.results[1].nested[0].visited, true);
    assert.deepEqual(out.results[0].parent, { type: 'workspace', workspace: true });
    assert.deepEqual(out.results[0].properties, (body.results[0] as any).properties);
    assert.deepEqual(out.results.slice(2), ['text', 3]);
    assert.equal(out.results[1].n, null);
  });

  test('leaves its input as it was, returns what nothing changed as it was given, and leaves scalars alone', () => {
    const before = JSON.stringify(body);
    assert.equal(
      mapObjects(body, (obj) => obj),
      body,
    );
    const out = mapObjects(body, (obj) => (obj.object === 'user' ? { ...obj, name: 'renamed' } : obj)) as any;
    assert.equal(JSON.stringify(body), before);
    assert.equal(out.results[1].nested[0].name, 'renamed');
    // Copied only on the path to the change.
    assert.notEqual(out, body);
    assert.notEqual(out.results[1], body.results[1]);
    assert.equal(out.results[0], body.results[0]);
    assert.equal(
      mapObjects(null, (o) => o),
      null,
    );
    assert.equal(
      mapObjects('x', (o) => o),
      'x',
    );
  });

  test('an object converter can drop a field only on the kinds it targets', () => {
    const out = mapObjects(body, (obj) => {
      if (obj.object !== 'page') return obj;
      const { parent: _parent, ...rest } = obj;
      return rest;
    }) as any;
    assert.equal('parent' in out.results[0], false);
    assert.equal(out.results[1].id, '2');
  });
});

describe('registered version changes', () => {
  test('each has a known version and a one-line description', () => {
    for (const c of VERSION_CHANGES) {
      assert.ok(API_VERSIONS.includes(c.version), c.version);
      assert.equal(c.description, c.description.trim());
      assert.ok(c.description.length > 0);
      assert.doesNotMatch(c.description, /\n/, `one line: ${c.description}`);
    }
  });

  test('docs/changelog.md is the changelog generated from them (regenerate: node --import tsx scripts/changelog.ts)', () => {
    const file = path.join(PACKAGE_ROOT, 'docs', 'changelog.md');
    assert.equal(fs.readFileSync(file, 'utf8'), new VersionEngine().changelog());
  });
});

/**
 * Route validators are compiled by Ajv at a route's first request, not when the server is built
 * (src/http/validators.ts): a schema Ajv refuses would then surface as a 500 at that request, so
 * every route's validators are compiled here, on a server built as any other.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compilePendingValidators } from '../../src/http/validators.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('route validators', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('a validator compiled at its first request refuses as before, then at later ones too', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/admin/v1/workspaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 7 }),
      });
      const body = (await res.json()) as { code: string; message: string };
      assert.equal(res.status, 400);
      assert.equal(body.code, 'validation_error');
      assert.match(body.message, /body\.name/);
    }
  });

  test('every route’s validators compile', () => {
    // Params, query strings and bodies of every route of /v1, /admin/v1 and the OAuth plane.
    assert.ok(compilePendingValidators() > 100);
    assert.equal(compilePendingValidators(), 0, 'each compiled once');
  });
});

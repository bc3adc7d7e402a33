import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { BODY_KEEP, keptBody } from '../../src/instruments/requestLog.js';

type Json = Record<string, any>;

describe('the request log keeps bodies and answers, bounded, secrets redacted', () => {
  const { server, fx } = useServer();

  test('a request opened shows its body and its answer', async () => {
    const page = await makeSharedPage(server, fx, 'Logged');
    const sent = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}`, {
      token: fx.token,
      body: { properties: { title: { title: [{ text: { content: 'Renamed' } }] } } },
    });
    assert.equal(sent.status, 200);
    const [entry] = (await admin(server, 'GET', '/requests?limit=1')).results;
    assert.equal(entry.path, `/v1/pages/${page.id}`);
    assert.deepEqual(JSON.parse(entry.request_body), { properties: { title: { title: [{ text: { content: 'Renamed' } }] } } });
    assert.equal(JSON.parse(entry.response_body).id, page.id);
    const refused = await call<Json>(server.url, 'GET', '/v1/pages/not-an-id', { token: fx.token });
    const [failed] = (await admin(server, 'GET', '/requests?limit=1')).results;
    assert.equal(failed.request_body, null);
    assert.equal(JSON.parse(failed.response_body).code, refused.body.code);
  });

  test('tokens, token fields and link signatures are redacted; long bodies are cut', () => {
    const token = 'folio_' + 'a'.repeat(43);
    assert.equal(keptBody({ note: `use ${token}` }), '{"note":"use folio_[redacted]"}');
    assert.equal(keptBody('{"token":"abc","client_secret":"s3"}'), '{"token":"[redacted]","client_secret":"[redacted]"}');
    assert.equal(keptBody('{"url":"http://x/files/1/a.png?expires=1&signature=abcDEF"}'), '{"url":"http://x/files/1/a.png?expires=1&signature=[redacted]"}');
    const long = keptBody({ text: 'x'.repeat(BODY_KEEP * 3) })!;
    assert.equal(long.length, BODY_KEEP + 1);
    assert.ok(long.endsWith('…'));
    // A token cut at the edge is still hidden.
    assert.doesNotMatch(keptBody('y'.repeat(BODY_KEEP - 10) + token)!, /folio_a/);
    assert.equal(keptBody(undefined), null);
  });
});

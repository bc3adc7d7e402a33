/**
 * Issue 27 item 4: revocation is immediate on every instance. Two servers on one PostgreSQL: a
 * token issued and revoked through one is refused by the other on its very next request, and a
 * refresh on one ends the old access token on the other. SQLite runs one server per store; its
 * cross-process case (`folio admin` revoking under a running server) is test/oauth/cli.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { startTestServer, STORE, type TestServer } from '../helpers/server.js';
import { admin, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { makeIntegration, quiet, usersMeStatus } from './helpers.js';

describe('OAuth on two instances of one PostgreSQL', { skip: STORE !== 'postgres' && 'needs DATABASE_URL' }, () => {
  let servers: TestServer[] = [];
  let fx: Fixture;
  before(async () => {
    servers = [await startTestServer(), await startTestServer()];
    fx = await makeWorkspace(servers[0]);
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  test('refresh and revoke through one instance take effect on the other at once', async () => {
    const [one, other] = servers;
    const integration = await makeIntegration(one, ['https://two.example/cb']);
    const creds = { client_id: integration.client_id, client_secret: integration.client_secret };
    const { code } = await admin(one, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: fx.user.id, page_ids: [] });
    const first = await new Client({ baseUrl: other.url, logger: quiet }).oauth.token({ ...creds, grant_type: 'authorization_code', code });
    assert.equal(await usersMeStatus(one, first.access_token), 200);
    assert.equal(await usersMeStatus(other, first.access_token), 200);

    const viaOne = new Client({ baseUrl: one.url, logger: quiet });
    const second = await viaOne.oauth.token({ ...creds, grant_type: 'refresh_token', refresh_token: first.refresh_token! });
    assert.equal(await usersMeStatus(other, first.access_token), 401);
    assert.equal(await usersMeStatus(other, second.access_token), 200);

    await viaOne.oauth.revoke({ ...creds, token: second.refresh_token! });
    assert.equal(await usersMeStatus(other, second.access_token), 401);
    assert.equal(await usersMeStatus(one, second.access_token), 401);
  });
});

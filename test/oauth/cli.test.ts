/**
 * The operator's side of the install flow through `folio admin` in its own process (issue 27
 * items 1–3): register an integration, grant without a browser (each CLI run costs a process start, so this
 * file keeps to three; the sign-in link's subcommand is the same table entry as its route); and deleting
 * the integration from that other process ends its connections on the running server at once
 * (SQLite's caller cache sees the other process's commit; PostgreSQL is read per request).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { folioCli } from '../helpers/folioCli.js';
import { makePages, quiet, searchIds, usersMeStatus } from './helpers.js';

describe('folio admin: integrations and OAuth', () => {
  const { server, fx } = useServer();
  const { json } = folioCli(() => server);

  test('create-integration, authorize-integration; delete-integration revokes on the running server', async () => {
    const pages = await makePages(server, fx);
    const integration = await json(
      'admin',
      'create-integration',
      '--name',
      'CLI app',
      '--redirect-uris',
      'https://cli.example/cb',
      '--capabilities',
      'read_content',
    );
    assert.match(integration.client_secret, /^folio_secret_/);
    assert.deepEqual(integration.capabilities, ['read_content', 'user_info_without_email']);

    const grant = await json('admin', 'authorize-integration', '--integration', integration.id, '--user', fx.user.id, '--pages', pages.b, '--state', 's1');
    assert.match(grant.redirect_url, /^https:\/\/cli\.example\/cb\?code=.+&state=s1$/);
    const tokens = await new Client({ baseUrl: server.url, logger: quiet }).oauth.token({
      client_id: integration.client_id,
      client_secret: integration.client_secret,
      grant_type: 'authorization_code',
      code: grant.code,
    });
    assert.deepEqual(await searchIds(server, tokens.access_token), [pages.b]);
    // Without user_info_with_email the owner is a partial user.
    assert.deepEqual(tokens.owner, { type: 'user', user: { object: 'user', id: fx.user.id } });

    assert.equal(await usersMeStatus(server, tokens.access_token), 200);
    await json('admin', 'delete-integration', '--integration', integration.id);
    assert.equal(await usersMeStatus(server, tokens.access_token), 401);
  });
});

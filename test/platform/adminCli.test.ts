/**
 * Issue 11, item 3: `folio admin` as an operator runs it, a child process on the store a running
 * server uses: every subcommand described in --help, the HTTP schemas' validation and messages,
 * no API advice about sharing, and a token rotated from the command line stops at once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { REPO_ROOT } from './childServer.js';
import { folioCli } from '../helpers/folioCli.js';

type Json = Record<string, any>;

const SUBCOMMANDS = [
  'create-workspace',
  'list-workspaces',
  'get-workspace',
  'delete-workspace',
  'create-user',
  'list-users',
  'delete-user',
  'create-connection',
  'list-connections',
  'get-connection',
  'update-connection',
  'rotate-token',
  'delete-connection',
  'create-page',
  'list-grants',
  'grant',
  'revoke-grant',
  'reset',
  'create-custom-emoji',
  'delete-custom-emoji',
  'mark-template',
  'unmark-template',
  'list-objects',
  'get-object',
  'list-meeting-notes',
  'get-meeting-note',
  'create-integration',
  'list-integrations',
  'get-integration',
  'update-integration',
  'rotate-integration-secret',
  'delete-integration',
  'create-sign-in-link',
  'authorize-integration',
  'create-webhook',
  'list-webhooks',
  'get-webhook',
  'update-webhook',
  'delete-webhook',
  'verify-webhook',
  'list-webhook-deliveries',
  'test-webhook',
];

describe('folio admin (CLI process)', () => {
  let server: TestServer;

  const { folio, json } = folioCli(() => server);

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('folio --version prints the package version; every admin subcommand has a description', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
    assert.equal((await folio('--version')).stdout.trim(), pkg.version);
    const help = (await folio('admin', '--help')).stdout;
    for (const name of SUBCOMMANDS) assert.match(help, new RegExp(`^  ${name} \\[options\\] +\\S`, 'm'), `${name} is described`);
    const listed = [...help.matchAll(/^ {2}([a-z-]+) \[options\]/gm)].map((m) => m[1]);
    assert.deepEqual(listed.sort(), [...SUBCOMMANDS].sort());
  });

  test('validation is the HTTP validation: a bad kind, an unknown capability, a bad id', async () => {
    const workspace = await json('admin', 'create-workspace', '--name', 'CLI');
    const kind = await folio('admin', 'create-connection', '--workspace', workspace.id, '--name', 'c', '--kind', 'banana');
    assert.equal(kind.code, 1);
    assert.equal(
      kind.stderr.trim(),
      'folio: validation_error: body failed validation: body.kind should be "internal", "public", or "personal", instead was `"banana"`.',
    );
    const caps = await folio(
      'admin',
      'create-connection',
      '--workspace',
      workspace.id,
      '--name',
      'c',
      '--kind',
      'internal',
      '--capabilities',
      'read_content,bogus',
    );
    assert.equal(caps.code, 1);
    assert.match(caps.stderr, /body\.capabilities\[1\] should be "read_content", .* instead was `"bogus"`/);
    const id = await folio('admin', 'get-workspace', '--workspace', 'nope');
    assert.equal(id.code, 1);
    assert.match(id.stderr, /workspace_id should be a valid uuid, instead was "nope"/);
  });

  test('not found speaks to an operator, not to an integration', async () => {
    const missing = randomUUID();
    const run = await folio('admin', 'get-connection', '--connection', missing);
    assert.equal(run.code, 1);
    assert.equal(run.stderr.trim(), `folio: object_not_found: Could not find connection with ID: ${missing}.`);
  });

  test('from the command line: set up, list, rename, rotate (the running server refuses the old token at once), delete', async () => {
    const workspace = await json('admin', 'create-workspace', '--name', 'CLI flow');
    const user = await json('admin', 'create-user', '--workspace', workspace.id, '--name', 'Ada', '--email', 'ada@example.com');
    const connection = await json('admin', 'create-connection', '--workspace', workspace.id, '--name', 'Bot', '--kind', 'personal', '--user', user.id);
    const page = await json('admin', 'create-page', '--workspace', workspace.id, '--title', 'Hello');
    await json('admin', 'grant', '--connection', connection.id, '--object', page.id);
    // The console's reads, from the command line too.
    const tree = await json('admin', 'list-objects', '--workspace', workspace.id, '--page-size', '1');
    assert.deepEqual([tree.results[0].id, tree.results[0].title, tree.has_more], [page.id, 'Hello', false]);
    assert.equal((await json('admin', 'get-object', '--object', page.id)).title, 'Hello');
    assert.deepEqual((await json('admin', 'list-meeting-notes', '--workspace', workspace.id)).results, []);
    assert.deepEqual(
      (await json('admin', 'list-grants', '--connection', connection.id)).results.map((g: Json) => g.object_id),
      [page.id],
    );
    assert.equal((await json('admin', 'list-connections', '--workspace', workspace.id)).results[0].id, connection.id);
    assert.equal((await json('admin', 'list-users', '--workspace', workspace.id, '--page-size', '1')).has_more, true);

    const read = await call<Json>(server.url, 'GET', `/v1/pages/${page.id}`, { token: connection.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.created_by, { object: 'user', id: user.id });

    assert.equal((await json('admin', 'update-connection', '--connection', connection.id, '--name', 'Renamed')).name, 'Renamed');
    const rotated = await json('admin', 'rotate-token', '--connection', connection.id);
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: connection.token })).status, 401);
    const me = await call<Json>(server.url, 'GET', '/v1/users/me', { token: rotated.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.name, 'Renamed');

    const refused = await folio('admin', 'delete-user', '--workspace', workspace.id, '--user', user.id);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /revoke its 1 connection first/);
    assert.deepEqual(await json('admin', 'delete-workspace', '--workspace', workspace.id), { object: 'workspace', id: workspace.id, deleted: true });
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: rotated.token })).status, 401);
  });
});

/**
 * Reset (issue 26 item 3): `POST /admin/v1/reset {to: "empty"}` and `folio admin reset` return the
 * store to empty — workspaces, users, connections, content, the search index, jobs and stored
 * files — and tokens from before are refused. On PostgreSQL the server gets a database of its own,
 * so emptying it cannot touch another test file's data.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { admin, makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok } from '../content/helpers.js';
import { created, PNG, sent } from '../fileUploads/helpers.js';
import { REPO_ROOT } from '../platform/childServer.js';
import { ownDatabase } from '../helpers/ownDatabase.js';
import { compiledCli } from '../helpers/compiledCli.js';

type Json = Record<string, any>;

/** Some of everything: pages with children, a database with a row, an uploaded file in a block. */
async function seed(server: TestServer): Promise<{ fx: Fixture; page: Json; fileUrl: string }> {
  const fx = await makeWorkspace(server);
  const page = await makeSharedPage(server, fx, 'Before the reset');
  const upload = await created(server, fx, { filename: 'photo.png', content_type: 'image/png' });
  await sent(server, fx, upload.id, PNG, { filename: 'photo.png', contentType: 'image/png' });
  const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
    children: [{ paragraph: { rich_text: [{ text: { content: 'Hello' } }] } }, { image: { type: 'file_upload', file_upload: { id: upload.id } } }],
  });
  await ok(server, fx, 'POST', '/v1/databases', {
    parent: { type: 'page_id', page_id: page.id },
    title: [{ text: { content: 'Tasks' } }],
    initial_data_source: { properties: { Name: { title: {} } } },
  });
  return { fx, page, fileUrl: appended.results[1].image.file.url };
}

describe('reset to empty', () => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof ownDatabase>>;

  before(async () => {
    database = await ownDatabase();
    server = await startTestServer(database ? { DATABASE_URL: database.url } : {});
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  test('empties the store; old tokens get 401, stored files are gone, and the server works on from nothing', async () => {
    const { fx, fileUrl } = await seed(server);
    assert.equal((await fetch(fileUrl)).status, 200);
    // Server-wide rows go too (issue 27): integrations and their pending codes.
    const integration = await admin(server, 'POST', '/integrations', { name: 'Gone', redirect_uris: ['https://gone.example/cb'], capabilities: [] });
    await admin(server, 'POST', '/oauth/authorizations', { integration_id: integration.id, user_id: fx.user.id, page_ids: [] });

    const reset = await admin(server, 'POST', '/reset', { to: 'empty' });
    assert.equal(reset.object, 'reset');
    assert.equal(reset.to, 'empty');
    assert.equal(typeof reset.duration_ms, 'number');

    assert.deepEqual((await admin(server, 'GET', '/workspaces')).results, []);
    assert.deepEqual((await admin(server, 'GET', '/integrations')).results, []);
    const refused = await call<Json>(server.url, 'GET', '/v1/users/me', { token: fx.token });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'unauthorized');
    assert.notEqual((await fetch(fileUrl)).status, 200);
    assert.deepEqual((await admin(server, 'GET', '/jobs')).results, []);

    // Everything works again from nothing, the search index included.
    const again = await seed(server);
    const found = await ok(server, again.fx, 'POST', '/v1/search', { query: 'Before the reset' });
    assert.deepEqual(
      found.results.map((r: Json) => r.id),
      [again.page.id],
    );
  });

  test('`seed` without a seed, and a bad `to`, are refused naming body.to', async () => {
    for (const to of ['seed', 'everything']) {
      const answer = await call<Json>(server.url, 'POST', '/admin/v1/reset', { token: server.adminToken, version: null, body: { to } });
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'validation_error');
      assert.match(answer.body.message, /body\.to/);
    }
  });

  test('folio admin reset --to empty, from the command line on the same store', async () => {
    const { fx } = await seed(server);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO_DATA_DIR: server.dataDir };
    if (database) env.DATABASE_URL = database.url;
    const cli = await compiledCli();
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, [cli, 'admin', 'reset', '--to', 'empty'], { cwd: REPO_ROOT, env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).to, 'empty');
    assert.equal((await call(server.url, 'GET', '/v1/users/me', { token: fx.token })).status, 401);
  });
});

/**
 * Pages and databases are blocks of their parent (child_page / child_database, same id), and
 * meeting notes blocks are read here but made by their own endpoint. The store is seeded with
 * what no endpoint of this issue creates.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { makeSharedPage, makeWorkspace, type Fixture } from '../helpers/factories.js';
import type { AppContext } from '../../src/context.js';
import { appendOk, assertValidationError, listAll, rt, seedChildDatabase, seedChildPage, seedMeetingNotes, startSeedableServer } from './fixtures.js';

type Json = Record<string, any>;

describe('pages, databases and meeting notes as blocks', () => {
  let server: TestServer;
  let ctx: AppContext;
  let fx: Fixture;
  before(async () => {
    ({ server, ctx } = await startSeedableServer());
    fx = await makeWorkspace(server);
  });
  after(() => server.close());

  const get = (path: string, version?: string) => call<Json>(server.url, 'GET', path, { token: fx.token, version });

  test('child pages and databases are listed among the blocks, in order, with their own ids', async () => {
    const page = await makeSharedPage(server, fx);
    const [intro] = await appendOk(server, fx.token, page.id, [{ paragraph: { rich_text: rt('intro') } }]);
    const child = await seedChildPage(ctx, fx.workspaceId, fx.connection.bot_id, { type: 'page_id', id: page.id }, 'Sub page');
    const databaseId = await seedChildDatabase(ctx, fx.workspaceId, fx.connection.bot_id, page.id, 'Tasks');
    const [outro] = await appendOk(server, fx.token, page.id, [{ paragraph: { rich_text: rt('outro') } }]);

    const listed = await listAll(server, fx.token, page.id);
    assert.deepEqual(
      listed.map((b) => [b.id, b.type]),
      [
        [intro.id, 'paragraph'],
        [child.id, 'child_page'],
        [databaseId, 'child_database'],
        [outro.id, 'paragraph'],
      ],
    );
    assert.deepEqual(listed[1].child_page, { title: 'Sub page' });
    assert.deepEqual(listed[1].parent, { type: 'page_id', page_id: page.id });
    assert.deepEqual(listed[2].child_database, { title: 'Tasks' });
    assert.equal(listed[2].has_children, false);

    // Content of the child page is reached through the same endpoints, with the page's id.
    const [inChild] = await appendOk(server, fx.token, child.id, [{ to_do: { rich_text: rt('in sub page') } }]);
    assert.deepEqual(inChild.parent, { type: 'page_id', page_id: child.id });
    assert.equal((await get(`/v1/blocks/${child.id}`)).body.has_children, true);
    assertValidationError(
      await call<Json>(server.url, 'PATCH', `/v1/blocks/${databaseId}/children`, { token: fx.token, body: { children: [{ divider: {} }] } }),
      /that a database can hold/,
    );

    // A page under a block.
    const [toggle] = await appendOk(server, fx.token, page.id, [{ toggle: { rich_text: rt('t') } }]);
    const nested = await seedChildPage(ctx, fx.workspaceId, fx.connection.bot_id, { type: 'block_id', id: toggle.id }, 'Nested page');
    const [nestedBlock] = await listAll(server, fx.token, toggle.id);
    assert.deepEqual([nestedBlock.id, nestedBlock.type, nestedBlock.parent], [nested.id, 'child_page', { type: 'block_id', block_id: toggle.id }]);
    assert.equal((await get(`/v1/blocks/${toggle.id}`)).body.has_children, true);

    // Deleting the page through the block endpoint trashes the page and its content.
    const deleted = await call<Json>(server.url, 'DELETE', `/v1/blocks/${child.id}`, { token: fx.token });
    assert.deepEqual([deleted.status, deleted.body.type, deleted.body.in_trash], [200, 'child_page', true]);
    assert.equal((await get(`/v1/blocks/${inChild.id}`)).body.in_trash, true);
    assert.deepEqual(
      (await listAll(server, fx.token, page.id)).map((b) => b.id),
      [intro.id, databaseId, outro.id, toggle.id],
    );
    const restored = await call<Json>(server.url, 'PATCH', `/v1/blocks/${child.id}`, { token: fx.token, body: { in_trash: false } });
    assert.equal(restored.body.in_trash, false);
  });

  test('meeting notes blocks are read here, renamed transcription before 2026-03-11, and not editable', async () => {
    const page = await makeSharedPage(server, fx);
    const id = await seedMeetingNotes(ctx, fx.workspaceId, fx.connection.bot_id, page.id);
    const now = await get(`/v1/blocks/${id}`);
    assert.equal(now.body.type, 'meeting_notes');
    assert.equal(now.body.meeting_notes.status, 'transcription_not_started');
    assert.equal(now.body.meeting_notes.title[0].plain_text, 'Weekly sync');

    const old = await get(`/v1/blocks/${id}`, '2025-09-03');
    assert.equal(old.body.type, 'transcription');
    assert.deepEqual(old.body.transcription, now.body.meeting_notes);
    assert.equal('meeting_notes' in old.body, false);
    assert.equal(old.body.archived, false);
    const listed = await listAll(server, fx.token, page.id, 100, '2025-09-03');
    assert.equal(listed.find((b) => b.id === id)?.type, 'transcription');

    assertValidationError(
      await call<Json>(server.url, 'PATCH', `/v1/blocks/${id}`, { token: fx.token, body: { meeting_notes: { title: rt('x') } } }),
      /body\.meeting_notes should be not present/,
    );
    assertValidationError(
      await call<Json>(server.url, 'PATCH', `/v1/blocks/${id}`, { token: fx.token, version: '2025-09-03', body: { transcription: { title: rt('x') } } }),
      // The caller wrote `transcription`, so the message names it (versions translate paths back).
      /body\.transcription should be not present/,
    );
    assertValidationError(
      await call<Json>(server.url, 'PATCH', `/v1/blocks/${id}/children`, { token: fx.token, body: { children: [{ divider: {} }] } }),
      /that a meeting notes can hold/,
    );
    // Trash and restore still apply.
    const trashed = await call<Json>(server.url, 'DELETE', `/v1/blocks/${id}`, { token: fx.token });
    assert.equal(trashed.body.in_trash, true);
  });
});

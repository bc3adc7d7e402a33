/**
 * Issue 25 item 8: POST /v1/blocks/meeting_notes/query. The meeting notes the connection sees (not
 * in the trash), filtered by every property and operator the SDK names, sorted, at most `limit`
 * with `has_more`; through raw HTTP and the SDK (`blocks.meetingNotes.query`). Notes are made with
 * no processing (FOLIO_WORKERS=0) at fixed times (the test clock).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { wav } from '../fileUploads/helpers.js';
import { createdNote, uploadRecording } from './helpers.js';

type Json = Record<string, any>;
const quiet = () => {};
const NOW = '2031-01-15T20:00:00.000Z';

describe('meeting notes: query', () => {
  // Unprocessed notes leave queued jobs: deleting the workspace deletes them, so no later server on
  // a shared PostgreSQL database picks them up. Registered before useServer's hooks.
  after(async () => {
    await admin(server, 'POST', '/clock', { now: null });
    await admin(server, 'DELETE', `/workspaces/${fx.workspaceId}`);
  });
  const { server, fx } = useServer({ env: { FOLIO_WORKERS: '0', FOLIO_TEST_CLOCK: '1' } });
  const notes: Record<string, Json> = {};
  let internal: Json;
  let stranger: Json;

  const noteAt = async (token: string, at: string, pageId: string, title?: string) => {
    await admin(server, 'POST', '/clock', { now: at });
    const upload = await uploadRecording(server, { ...fx, token }, wav(8000), 'meeting.wav');
    return createdNote(
      server,
      { ...fx, token },
      { source: { type: 'file_upload', file_upload_id: upload }, parent: { type: 'page_id', page_id: pageId }, ...(title === undefined ? {} : { title }) },
    );
  };

  before(async () => {
    internal = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content', 'update_content']);
    stranger = await addConnection(server, fx.workspaceId, ['read_content', 'insert_content', 'update_content']);
    const page = await makeSharedPage(server, fx, 'Meetings');
    await admin(server, 'POST', `/connections/${internal.id}/grants`, { object_id: page.id });
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared with fx' });
    await admin(server, 'POST', `/connections/${stranger.id}/grants`, { object_id: hidden.id });
    notes.weekly = await noteAt(fx.token, '2031-01-10T10:00:00.000Z', page.id, 'Weekly sync');
    notes.design = await noteAt(fx.token, '2031-01-12T15:00:00.000Z', page.id, 'Design review');
    notes.retro = await noteAt(fx.token, '2031-01-15T09:00:00.000Z', page.id, 'Sprint retro');
    notes.untitled = await noteAt(fx.token, '2031-01-15T18:00:00.000Z', page.id);
    // By an internal connection: another author, and no attendee (it acts for nobody).
    notes.internal = await noteAt(internal.token, '2031-01-14T12:00:00.000Z', page.id, 'Internal sync');
    notes.trashed = await noteAt(fx.token, '2031-01-13T12:00:00.000Z', page.id, 'Weekly sync (cancelled)');
    const trashed = await call(server.url, 'DELETE', `/v1/blocks/${notes.trashed.id}`, { token: fx.token });
    assert.equal(trashed.status, 200, JSON.stringify(trashed.body));
    notes.hidden = await noteAt(stranger.token, '2031-01-11T12:00:00.000Z', hidden.id, 'Weekly sync elsewhere');
    await admin(server, 'POST', '/clock', { now: NOW });
  });

  const query = (body: unknown, token = fx.token) => call<Json>(server.url, 'POST', '/v1/blocks/meeting_notes/query', { token, body });
  const ids = async (body: unknown): Promise<string[]> => {
    const res = await query(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.results.map((block: Json) => block.id);
  };
  const named = (...keys: string[]) => keys.map((key) => notes[key].id);
  const same = async (filter: unknown, keys: string[]) => assert.deepEqual((await ids({ filter })).sort(), named(...keys).sort(), JSON.stringify(filter));
  const on = (property: string, operator: string, value?: unknown) => ({ property, filter: { operator, ...(value === undefined ? {} : { value }) } });
  const exact = (value: unknown) => ({ type: 'exact', value });
  const user = (id: string) => ({ type: 'exact', value: { table: 'notion_user', id } });

  test('{}: every note the connection sees, in creation order, as meeting-notes blocks; none in the trash or unshared', async () => {
    const res = await query({});
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['has_more', 'results']);
    assert.equal(res.body.has_more, false);
    assert.deepEqual(
      res.body.results.map((b: Json) => b.id),
      named('weekly', 'design', 'internal', 'retro', 'untitled'),
    );
    const first = res.body.results[0];
    assert.equal(first.object, 'block');
    assert.equal(first.type, 'meeting_notes');
    assert.equal(first.meeting_notes.title[0].plain_text, 'Weekly sync');
    assert.equal(first.meeting_notes.status, 'transcription_not_started');
    assert.equal(first.created_time, '2031-01-10T10:00:00.000Z');
    assert.equal('parent' in first, false);
    const retrieved = await call<Json>(server.url, 'GET', `/v1/blocks/${first.id}`, { token: fx.token });
    const { parent: _parent, ...block } = retrieved.body;
    assert.deepEqual(first, block);
    // The other connection sees only its own page's note.
    const theirs = await query({}, stranger.token);
    assert.deepEqual(
      theirs.body.results.map((b: Json) => b.id),
      named('hidden'),
    );
  });

  test('title: every string operator and the empty checks', async () => {
    await same(on('title', 'string_is', exact('weekly sync')), ['weekly']);
    await same(on('title', 'string_is_not', exact('Weekly sync')), ['design', 'retro', 'untitled', 'internal']);
    await same(on('title', 'string_contains', exact('SYNC')), ['weekly', 'internal']);
    await same(on('title', 'string_does_not_contain', exact('sync')), ['design', 'retro', 'untitled']);
    await same(on('title', 'string_starts_with', exact('Sprint')), ['retro']);
    await same(on('title', 'string_ends_with', exact('review')), ['design']);
    await same(on('title', 'is_empty'), ['untitled']);
    await same(on('title', 'is_not_empty'), ['weekly', 'design', 'retro', 'internal']);
  });

  test('created_time: point operators with exact and relative values', async () => {
    await same(on('created_time', 'date_is', exact({ type: 'date', start_date: '2031-01-15' })), ['retro', 'untitled']);
    await same(on('created_time', 'date_is', { type: 'relative', value: 'today' }), ['retro', 'untitled']);
    await same(on('created_time', 'date_is_before', exact({ type: 'datetime', start_date: '2031-01-12', start_time: '16:00', time_zone: 'Europe/Paris' })), [
      'weekly',
    ]);
    await same(on('created_time', 'date_is_before', exact({ type: 'datetime', start_date: '2031-01-12', start_time: '16:00' })), ['weekly', 'design']);
    await same(on('created_time', 'date_is_after', exact({ type: 'date', start_date: '2031-01-14' })), ['retro', 'untitled']);
    await same(on('created_time', 'date_is_on_or_before', exact({ type: 'date', start_date: '2031-01-12' })), ['weekly', 'design']);
    await same(on('created_time', 'date_is_on_or_after', { type: 'relative', value: 'yesterday' }), ['internal', 'retro', 'untitled']);
    await same(on('created_time', 'date_is', exact('2031-01-14')), ['internal']);
    await same(on('created_time', 'is_empty'), []);
    await same(on('created_time', 'is_not_empty'), ['weekly', 'design', 'internal', 'retro', 'untitled']);
  });

  test('created_time and last_edited_time: ranges, exact and relative', async () => {
    await same(on('created_time', 'date_is_within', exact({ type: 'daterange', start_date: '2031-01-11', end_date: '2031-01-14' })), ['design', 'internal']);
    await same(on('created_time', 'date_is_within', exact({ type: 'daterange', start_date: '2031-01-14' })), ['internal', 'retro', 'untitled']);
    // From today back three days: 12 January 00:00 to the end of today.
    await same(on('created_time', 'date_is_within', { type: 'relative', value: 'today', direction: 'past', unit: 'day', count: 3 }), [
      'design',
      'internal',
      'retro',
      'untitled',
    ]);
    // The planner's window: the 8th through today.
    await same(on('created_time', 'date_is_within', { type: 'relative', value: 'past_week' }), ['weekly', 'design', 'internal', 'retro', 'untitled']);
    await same(on('created_time', 'date_is_within', { type: 'relative', value: 'today', direction: 'past', unit: 'week', count: 0 }), ['retro', 'untitled']);
    await same(on('last_edited_time', 'date_is_relative_to', { type: 'relative', value: 'one_week_ago', direction: 'future', unit: 'day', count: 2 }), [
      'weekly',
    ]);
    await same(on('last_edited_time', 'date_is_relative_to', { type: 'relative', value: 'today', direction: 'future', unit: 'week', count: 1 }), [
      'retro',
      'untitled',
    ]);
    await same(on('last_edited_time', 'date_is_on_or_after', exact({ type: 'date', start_date: '2031-01-15' })), ['retro', 'untitled']);
  });

  test('created_by, last_edited_by, attendees: person operators and the empty checks', async () => {
    const bot = notes.weekly.created_by.id;
    const internalBot = notes.internal.created_by.id;
    assert.notEqual(bot, internalBot);
    await same(on('created_by', 'person_contains', user(internalBot)), ['internal']);
    await same(on('created_by', 'person_does_not_contain', user(internalBot)), ['weekly', 'design', 'retro', 'untitled']);
    await same(on('created_by', 'is_not_empty'), ['weekly', 'design', 'internal', 'retro', 'untitled']);
    await same(on('created_by', 'is_empty'), []);
    await same(on('last_edited_by', 'person_contains', [user(bot), user(internalBot)]), ['weekly', 'design', 'internal', 'retro', 'untitled']);
    await same(on('last_edited_by', 'person_does_not_contain', [user(bot)]), ['internal']);
    // Attendees: the person the creating connection acts for; an internal connection acts for none.
    await same(on('attendees', 'person_contains', user(fx.user.id)), ['weekly', 'design', 'retro', 'untitled']);
    await same(on('attendees', 'person_contains', [user(fx.user.id.replace(/-/g, ''))]), ['weekly', 'design', 'retro', 'untitled']);
    await same(on('attendees', 'person_does_not_contain', user(fx.user.id)), ['internal']);
    await same(on('attendees', 'is_empty'), ['internal']);
    await same(on('attendees', 'is_not_empty'), ['weekly', 'design', 'retro', 'untitled']);
  });

  test('combinators: and, or, one nested level', async () => {
    await same({ operator: 'and', filters: [on('title', 'string_contains', exact('sync')), on('attendees', 'is_not_empty')] }, ['weekly']);
    await same({ operator: 'or', filters: [on('title', 'string_is', exact('Sprint retro')), on('title', 'is_empty')] }, ['retro', 'untitled']);
    await same(
      {
        operator: 'or',
        filters: [
          {
            operator: 'and',
            filters: [on('title', 'string_contains', exact('sync')), on('created_time', 'date_is', { type: 'relative', value: 'yesterday' })],
          },
          on('title', 'string_ends_with', exact('review')),
        ],
      },
      ['internal', 'design'],
    );
    await same({ operator: 'and', filters: [] }, ['weekly', 'design', 'internal', 'retro', 'untitled']);
  });

  test('sort and limit: earlier sorts first, has_more when more matched, no cursor', async () => {
    assert.deepEqual(await ids({ sort: [{ property: 'title', direction: 'ascending' }] }), named('design', 'internal', 'retro', 'weekly', 'untitled'));
    assert.deepEqual(await ids({ sort: [{ property: 'created_time', direction: 'descending' }] }), named('untitled', 'retro', 'internal', 'design', 'weekly'));
    assert.deepEqual(
      await ids({
        sort: [
          { property: 'attendees', direction: 'descending' },
          { property: 'last_edited_time', direction: 'descending' },
        ],
      }),
      named('untitled', 'retro', 'design', 'weekly', 'internal'),
    );
    assert.deepEqual(
      await ids({
        sort: [
          { property: 'created_by', direction: 'ascending' },
          { property: 'last_edited_by', direction: 'ascending' },
          { property: 'created_time', direction: 'ascending' },
        ],
      }).then((list) => list.length),
      5,
    );
    const page = await query({ limit: 2, sort: [{ property: 'created_time', direction: 'ascending' }] });
    assert.deepEqual(
      page.body.results.map((b: Json) => b.id),
      named('weekly', 'design'),
    );
    assert.equal(page.body.has_more, true);
    const all = await query({ limit: 5 });
    assert.equal(all.body.has_more, false);
  });

  test('invalid property, operator, value, sort or limit: 400 validation_error naming the field', async () => {
    const refused = async (body: unknown, field: RegExp) => {
      const res = await query(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'validation_error');
      assert.match(res.body.message, field, res.body.message);
    };
    await refused({ filter: on('status', 'string_is', exact('x')) }, /filter\.property/);
    await refused({ filter: on('title', 'date_is', exact('x')) }, /filter\.filter\.operator/);
    await refused({ filter: on('title', 'string_is', { type: 'relative', value: 'x' }) }, /filter\.filter\.value\.type/);
    await refused({ filter: on('title', 'string_is', exact(3)) }, /filter\.filter\.value\.value/);
    await refused({ filter: on('title', 'string_is') }, /filter\.filter\.value/);
    await refused({ filter: on('title', 'is_empty', exact('x')) }, /filter\.filter\.value/);
    await refused({ filter: on('created_time', 'date_is', { type: 'relative', value: 'someday' }) }, /filter\.filter\.value\.value/);
    await refused({ filter: on('created_time', 'date_is', exact({ type: 'date', start_date: '2031-02-30' })) }, /start_date/);
    await refused({ filter: on('created_time', 'date_is', exact({ type: 'datetime', start_date: '2031-01-01' })) }, /start_time/);
    await refused(
      { filter: on('created_time', 'date_is', exact({ type: 'datetime', start_date: '2031-01-01', start_time: '10:00', time_zone: 'Mars/Base' })) },
      /time_zone/,
    );
    await refused({ filter: on('created_time', 'date_is_within', exact({ type: 'daterange', start_date: '2031-01-05', end_date: '2031-01-01' })) }, /end_date/);
    await refused({ filter: on('created_time', 'date_is_within', { type: 'relative', value: 'today', unit: 'fortnight' }) }, /filter\.filter\.value\.unit/);
    await refused({ filter: on('created_by', 'person_contains', user('not-a-uuid')) }, /filter\.filter\.value\.value\.id/);
    await refused({ filter: on('attendees', 'person_contains', { type: 'exact', value: { table: 'users', id: fx.user.id } }) }, /table/);
    await refused({ filter: { operator: 'xor', filters: [] } }, /filter\.operator/);
    await refused(
      { filter: { operator: 'and', filters: [{ operator: 'or', filters: [{ operator: 'and', filters: [] }] }] } },
      /filter\.filters\[0\]\.filters\[0\]/,
    );
    await refused({ sort: [{ property: 'status', direction: 'ascending' }] }, /body\.sort\[0\]\.property/);
    await refused({ limit: 0 }, /body\.limit/);
    await refused({ limit: 51 }, /body\.limit/);
    await refused({ cursor: 'x' }, /cursor/);
  });

  test('needs read_content', async () => {
    const writer = await addConnection(server, fx.workspaceId, ['insert_content']);
    const res = await query({}, writer.token);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'restricted_resource');
  });

  for (const notionVersion of ['2025-09-03', '2026-03-11'] as const) {
    test(`through the SDK at ${notionVersion}: blocks.meetingNotes.query`, async () => {
      const client = new Client({ auth: fx.token, baseUrl: server.url, notionVersion, logger: quiet });
      const res = await client.blocks.meetingNotes.query({
        filter: { operator: 'and', filters: [{ property: 'title', filter: { operator: 'string_contains', value: { type: 'exact', value: 'sync' } } }] },
        sort: [{ property: 'created_time', direction: 'descending' }],
        limit: 10,
      });
      assert.deepEqual(
        res.results.map((b) => b.id),
        named('internal', 'weekly'),
      );
      assert.equal(res.has_more, false);
      // The block type's older name before 2026-03-11 (FACTS.md §1).
      assert.equal(res.results[0].type, notionVersion === '2025-09-03' ? 'transcription' : 'meeting_notes');
      await assert.rejects(
        () => client.blocks.meetingNotes.query({ filter: { operator: 'and', filters: [{ property: 'nope' as 'title', filter: { operator: 'is_empty' } }] } }),
        (error: unknown) => APIResponseError.isAPIResponseError(error) && error.code === APIErrorCode.ValidationError,
      );
    });
  }
});

/**
 * Issue 14, POST /v1/blocks/meeting_notes: every rule of the spec and its errors, the minimal and
 * full answers, where the block goes, entitlement and credits. No worker runs here
 * (FOLIO_WORKERS=0): each block stays as creation left it.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@notionhq/client';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage, makeWorkspace as makeOwnWorkspace } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok } from '../content/helpers.js';
import { created, PNG, refused, sent, wav } from '../fileUploads/helpers.js';
import { childrenOf, createNote, createdNote, uploadRecording } from './helpers.js';

type Json = Record<string, any>;

describe('meeting notes: create', () => {
  // The notes made here are never processed; deleting their workspaces deletes their jobs, so no
  // later server on a shared PostgreSQL database picks them up. Registered before useServer's
  // hooks, so it runs while the server is still up.
  const workspaces: string[] = [];
  after(async () => {
    for (const id of [fx.workspaceId, ...workspaces]) await admin(server, 'DELETE', `/workspaces/${id}`);
  });
  const { server, fx } = useServer({ env: { FOLIO_WORKERS: '0' } });
  const makeWorkspace = async (...args: Parameters<typeof makeOwnWorkspace>) => {
    const made = await makeOwnWorkspace(...args);
    workspaces.push(made.workspaceId);
    return made;
  };
  const recording = () => uploadRecording(server, fx, wav(64_000), 'standup.wav');
  const fromUpload = async (extra: Json = {}) => {
    const page = await makeSharedPage(server, fx);
    return { page, body: { source: { type: 'file_upload', file_upload_id: await recording() }, parent: { type: 'page_id', page_id: page.id }, ...extra } };
  };

  test('from an upload: the full block, exactly the spec fields, at the end of the page', async () => {
    const { page, body } = await fromUpload({ title: 'Weekly sync' });
    await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [{ paragraph: { rich_text: [{ text: { content: 'before' } }] } }] });
    const note = await createdNote(server, fx, body);
    assert.deepEqual(Object.keys(note).sort(), [
      'created_by',
      'created_time',
      'has_children',
      'id',
      'in_trash',
      'last_edited_by',
      'last_edited_time',
      'meeting_notes',
      'object',
      'type',
    ]);
    assert.equal(note.object, 'block');
    assert.equal(note.type, 'meeting_notes');
    assert.equal(note.meeting_notes.status, 'transcription_not_started');
    assert.equal(note.meeting_notes.title[0].plain_text, 'Weekly sync');
    assert.deepEqual(note.created_by, { object: 'user', id: fx.connection.bot_id });
    assert.equal(note.has_children, false);
    const children = await childrenOf(server, fx, page.id);
    assert.deepEqual(
      children.map((c) => c.type),
      ['paragraph', 'meeting_notes'],
    );
    assert.equal(children[1].id, note.id);
    const read = await ok(server, fx, 'GET', `/v1/blocks/${note.id}`);
    assert.deepEqual(read.parent, { type: 'page_id', page_id: page.id });
    assert.deepEqual(read.meeting_notes, note.meeting_notes);
  });

  test('not idempotent: the same request twice makes two blocks', async () => {
    const { page, body } = await fromUpload();
    const first = await createdNote(server, fx, body);
    const second = await createdNote(server, fx, body);
    assert.notEqual(first.id, second.id);
    assert.deepEqual(
      (await childrenOf(server, fx, page.id)).map((c) => c.id),
      [first.id, second.id],
    );
  });

  test('without read content: the minimal answer, exactly {object, id}', async () => {
    const writer = await addConnection(server, fx.workspaceId, ['insert_content'], 'personal', fx.user.id);
    const page = await makeSharedPage(server, fx);
    await admin(server, 'POST', `/connections/${writer.id}/grants`, { object_id: page.id });
    const upload = await created(server, { ...fx, token: writer.token }, { filename: 'a.wav' });
    await sent(server, { ...fx, token: writer.token }, upload.id, wav(8000), { filename: 'a.wav' });
    const res = await createNote(server, writer.token, {
      source: { type: 'file_upload', file_upload_id: upload.id },
      parent: { type: 'page_id', page_id: page.id },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['id', 'object']);
    assert.equal(res.body.object, 'block');
  });

  test('insert content is required', async () => {
    const reader = await addConnection(server, fx.workspaceId, ['read_content'], 'personal', fx.user.id);
    const res = await createNote(server, reader.token, {
      source: { type: 'file_upload', file_upload_id: await recording() },
      parent: { type: 'page_id', page_id: fx.user.id },
    });
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.code, 'restricted_resource');
  });

  test('the official SDK creates one and reads it back; before 2026-03-11 it is a `transcription` block', async () => {
    const { body } = await fromUpload({ title: 'SDK', language: 'en', options: { kickoff_summary: false } });
    const notion = new Client({ auth: fx.token, baseUrl: server.url, notionVersion: LATEST_VERSION });
    const note = (await notion.blocks.meetingNotes.create(body as any)) as Json;
    assert.equal(note.type, 'meeting_notes');
    // The SDK's own default version is older: it gets the old name.
    const older = (await new Client({ auth: fx.token, baseUrl: server.url }).blocks.meetingNotes.create((await fromUpload()).body as any)) as Json;
    assert.equal(older.type, 'transcription');
    const old = await call<Json>(server.url, 'GET', `/v1/blocks/${note.id}`, { token: fx.token, version: '2025-09-03' });
    assert.equal(old.status, 200);
    assert.equal(old.body.type, 'transcription');
    assert.equal(old.body.transcription.status, 'transcription_not_started');
    assert.equal(old.body.meeting_notes, undefined);
    const oldCreate = await createNote(server, fx.token, (await fromUpload()).body, '2025-09-03');
    assert.equal(oldCreate.status, 200, JSON.stringify(oldCreate.body));
    assert.equal(oldCreate.body.type, 'transcription');
    assert.equal(oldCreate.body.archived, false);
  });

  describe('body rules', () => {
    test('title at most 2000 characters', async () => {
      const { body } = await fromUpload({ title: 'x'.repeat(2001) });
      refused(await createNote(server, fx.token, body), 'body.title');
      const { body: longest } = await fromUpload({ title: 'x'.repeat(2000) });
      const note = await createdNote(server, fx, longest);
      assert.equal(note.meeting_notes.title.map((t: Json) => t.plain_text).join('').length, 2000);
    });

    test('language from the listed values, and one the configured engine transcribes', async () => {
      refused(await createNote(server, fx.token, (await fromUpload({ language: 'klingon' })).body), 'body.language');
      for (const language of ['auto', 'en']) await createdNote(server, fx, (await fromUpload({ language })).body);
      // The local engine (the default) is English only: another listed language is refused at
      // creation, naming the field and the engines that take it, and no block is made.
      for (const language of ['zh-TW', 'pl', 'fr']) {
        const { page, body } = await fromUpload({ language });
        const answer = await createNote(server, fx.token, body);
        refused(answer, 'body.language');
        assert.match(answer.body.message, /local engine transcribes English only/);
        assert.match(answer.body.message, /whisper or openai engine \(FOLIO_TRANSCRIBER\)/);
        assert.deepEqual(await childrenOf(server, fx, page.id), []);
      }
    });

    test('options: kickoff_summary is the only key, a boolean', async () => {
      refused(await createNote(server, fx.token, (await fromUpload({ options: { kickkoff_placeholder: true } })).body), 'body.options');
      refused(await createNote(server, fx.token, (await fromUpload({ options: { kickoff_summary: 'yes' } })).body), 'body.options.kickoff_summary');
    });

    test('source: exactly one of its two shapes, no extra keys', async () => {
      const { page } = await fromUpload();
      const parent = { type: 'page_id', page_id: page.id };
      const upload = await recording();
      refused(await createNote(server, fx.token, { parent }), 'body.source');
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload, extra: 1 }, parent }), 'body.source');
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', block_id: upload }, parent }), 'body.source');
      refused(await createNote(server, fx.token, { source: { type: 'url', url: 'https://example.com/a.wav' }, parent }), 'body.source');
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload }, parent, extra: true }), 'body');
    });

    test('parent: required with an upload source, a page_id object', async () => {
      const upload = await recording();
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload } }), 'body.parent should be defined');
      refused(
        await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload }, parent: { type: 'block_id', block_id: upload } }),
        'body.parent',
      );
    });

    test('malformed JSON is invalid_json', async () => {
      const res = await call<Json>(server.url, 'POST', '/v1/blocks/meeting_notes', { token: fx.token, rawBody: '{"source":' });
      refused(res, /JSON/, 400, 'invalid_json');
    });
  });

  describe('the upload source', () => {
    test('must be an upload of this integration with status `uploaded`', async () => {
      const page = await makeSharedPage(server, fx);
      const parent = { type: 'page_id', page_id: page.id };
      const pending = await created(server, fx, { filename: 'later.wav' });
      refused(
        await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: pending.id }, parent }),
        /body\.source\.file_upload_id should be a file upload with status `uploaded` \(this one is `pending`\)/,
      );
      refused(
        await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: '00000000-0000-4000-8000-000000000000' }, parent }),
        'body.source.file_upload_id should be the ID of a file upload created by this integration',
      );
      const other = await makeWorkspace(server);
      const theirs = await uploadRecording(server, other, wav(8000), 'theirs.wav');
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: theirs }, parent }), 'body.source.file_upload_id');
    });

    test('must hold audio or video, and not WebM', async () => {
      const page = await makeSharedPage(server, fx);
      const parent = { type: 'page_id', page_id: page.id };
      const image = await uploadRecording(server, fx, PNG, 'cover.png');
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: image }, parent }), /should be an audio or video file/);
      // A WebM header (EBML magic and the webm doctype) so the upload itself is accepted as audio/webm.
      const webm = Buffer.concat([Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701', 'hex'), Buffer.alloc(512)]);
      const upload = await created(server, fx, { filename: 'voice.webm', content_type: 'audio/webm' });
      const sentWebm = await call<Json>(server.url, 'GET', `/v1/file_uploads/${upload.id}`, { token: fx.token });
      assert.equal(sentWebm.status, 200);
      await sent(server, fx, upload.id, webm, { filename: 'voice.webm', contentType: 'audio/webm' });
      refused(await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload.id }, parent }), /WebM audio is not supported/);
    });

    test('the parent page must be shared (else object_not_found) and not in the trash', async () => {
      const upload = await recording();
      const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Hidden' });
      const res = await createNote(server, fx.token, {
        source: { type: 'file_upload', file_upload_id: upload },
        parent: { type: 'page_id', page_id: hidden.id },
      });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.code, 'object_not_found');
      const page = await makeSharedPage(server, fx);
      await ok(server, fx, 'PATCH', `/v1/pages/${page.id}`, { in_trash: true });
      refused(
        await createNote(server, fx.token, { source: { type: 'file_upload', file_upload_id: upload }, parent: { type: 'page_id', page_id: page.id } }),
        /archived/,
      );
    });
  });

  describe('the block source', () => {
    const audioBlock = async () => {
      const page = await makeSharedPage(server, fx);
      const upload = await recording();
      const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
        children: [{ audio: { type: 'file_upload', file_upload: { id: upload } } }, { paragraph: { rich_text: [{ text: { content: 'after' } }] } }],
      });
      return { page, audio: appended.results[0] as Json };
    };

    test('an audio block: the note goes right after it', async () => {
      const { page, audio } = await audioBlock();
      const note = await createdNote(server, fx, { source: { type: 'block', block_id: audio.id } });
      assert.deepEqual(
        (await childrenOf(server, fx, page.id)).map((c) => c.type),
        ['audio', 'meeting_notes', 'paragraph'],
      );
      const read = await ok(server, fx, 'GET', `/v1/blocks/${note.id}`);
      assert.deepEqual(read.parent, { type: 'page_id', page_id: page.id });
    });

    test('a file block holding a recording is a source too', async () => {
      const page = await makeSharedPage(server, fx);
      const upload = await recording();
      const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
        children: [{ file: { type: 'file_upload', file_upload: { id: upload } } }],
      });
      await createdNote(server, fx, { source: { type: 'block', block_id: appended.results[0].id } });
    });

    test('parent must be omitted', async () => {
      const { page, audio } = await audioBlock();
      refused(
        await createNote(server, fx.token, { source: { type: 'block', block_id: audio.id }, parent: { type: 'page_id', page_id: page.id } }),
        'body.parent should be omitted',
      );
    });

    test('needs read content', async () => {
      const { page, audio } = await audioBlock();
      const writer = await addConnection(server, fx.workspaceId, ['insert_content'], 'personal', fx.user.id);
      await admin(server, 'POST', `/connections/${writer.id}/grants`, { object_id: page.id });
      const res = await createNote(server, writer.token, { source: { type: 'block', block_id: audio.id } });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'restricted_resource');
    });

    test('must be an audio, video or file block backed by an uploaded recording', async () => {
      const page = await makeSharedPage(server, fx);
      const image = await uploadRecording(server, fx, PNG, 'p.png');
      const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${page.id}/children`, {
        children: [
          { paragraph: { rich_text: [{ text: { content: 'words' } }] } },
          { audio: { type: 'external', external: { url: 'https://example.com/a.mp3' } } },
          { file: { type: 'file_upload', file_upload: { id: image } } },
        ],
      });
      const [paragraph, external, picture] = appended.results as Json[];
      refused(
        await createNote(server, fx.token, { source: { type: 'block', block_id: paragraph.id } }),
        'body.source.block_id should be the ID of an audio, video or file block',
      );
      refused(
        await createNote(server, fx.token, { source: { type: 'block', block_id: external.id } }),
        /body\.source\.block_id should be a block whose file is an uploaded file/,
      );
      refused(await createNote(server, fx.token, { source: { type: 'block', block_id: picture.id } }), /should be an audio or video file/);
      const missing = await createNote(server, fx.token, { source: { type: 'block', block_id: '00000000-0000-4000-8000-000000000000' } });
      assert.equal(missing.status, 404, JSON.stringify(missing.body));
    });
  });

  describe('entitlement and credits', () => {
    test('a person without AI meeting notes, or a workspace without them: 400', async () => {
      const own = await makeWorkspace(server);
      const page = await makeSharedPage(server, own);
      const body = async () => ({
        source: { type: 'file_upload', file_upload_id: await uploadRecording(server, own, wav(8000), 'a.wav') },
        parent: { type: 'page_id', page_id: page.id },
      });
      const person = await admin(server, 'PATCH', `/workspaces/${own.workspaceId}/users/${own.user.id}`, { meeting_notes_enabled: false });
      assert.equal(person.meeting_notes_enabled, false);
      refused(await createNote(server, own.token, await body()), /AI meeting notes are not available to the user/);
      await admin(server, 'PATCH', `/workspaces/${own.workspaceId}/users/${own.user.id}`, { meeting_notes_enabled: true });
      await createdNote(server, own, await body());

      const workspace = await admin(server, 'PATCH', `/workspaces/${own.workspaceId}`, { meeting_notes_enabled: false });
      assert.equal(workspace.meeting_notes_enabled, false);
      refused(await createNote(server, own.token, await body()), /not available/);
      // An internal connection acts for the workspace.
      const internal = await addConnection(server, own.workspaceId, ['read_content', 'insert_content']);
      await admin(server, 'POST', `/connections/${internal.id}/grants`, { object_id: page.id });
      const internalFx = { ...own, token: internal.token };
      const internalBody = {
        source: { type: 'file_upload', file_upload_id: await uploadRecording(server, internalFx, wav(8000), 'b.wav') },
        parent: { type: 'page_id', page_id: page.id },
      };
      refused(await createNote(server, internal.token, internalBody), /not available in this workspace/);
      await admin(server, 'PATCH', `/workspaces/${own.workspaceId}`, { meeting_notes_enabled: true });
      await createdNote(server, internalFx, internalBody);
    });

    test('a workspace out of credits: 403 workspace_credits_exhausted with its additional_data', async () => {
      const own = await makeWorkspace(server);
      const page = await makeSharedPage(server, own);
      const workspace = await admin(server, 'PATCH', `/workspaces/${own.workspaceId}`, { ai_credits: 0 });
      assert.equal(workspace.ai_credits, 0);
      const res = await createNote(server, own.token, {
        source: { type: 'file_upload', file_upload_id: await uploadRecording(server, own, wav(8000), 'a.wav') },
        parent: { type: 'page_id', page_id: page.id },
      });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'workspace_credits_exhausted');
      assert.deepEqual(res.body.additional_data, {
        tool_error_code: 'workspace_credits_exhausted',
        tool_error_class: 'entitlement_required',
        tool_error_retryable: 'false',
        recovery_kind: 'contact_workspace_owner',
      });
      await admin(server, 'PATCH', `/workspaces/${own.workspaceId}`, { ai_credits: null });
    });

    test('a connection past its own credit limit: 403 agent_credit_limit_reached', async () => {
      const own = await makeWorkspace(server);
      const page = await makeSharedPage(server, own);
      const connection = await admin(server, 'PATCH', `/connections/${own.connection.id}`, { ai_credit_limit: 0 });
      assert.equal(connection.ai_credit_limit, 0);
      const res = await createNote(server, own.token, {
        source: { type: 'file_upload', file_upload_id: await uploadRecording(server, own, wav(8000), 'a.wav') },
        parent: { type: 'page_id', page_id: page.id },
      });
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.code, 'agent_credit_limit_reached');
      assert.equal(res.body.additional_data.tool_error_code, 'agent_credit_limit_reached');
      assert.equal(res.body.additional_data.tool_error_class, 'entitlement_required');
      assert.equal(res.body.additional_data.tool_error_retryable, 'false');
      assert.ok(
        ['contact_workspace_owner', 'none', 'open_agent_settings', 'request_agent_limit_increase', 'request_pending'].includes(
          res.body.additional_data.recovery_kind,
        ),
      );
    });

    test('an operator setting an invalid credit limit: 400 invalid_credit_limit', async () => {
      for (const bad of [-1, 1.5, '10', true, {}]) {
        const workspace = await call<Json>(server.url, 'PATCH', `/admin/v1/workspaces/${fx.workspaceId}`, {
          token: server.adminToken,
          version: null,
          body: { ai_credits: bad },
        });
        refused(workspace, 'ai_credits', 400, 'invalid_credit_limit');
        const connection = await call<Json>(server.url, 'PATCH', `/admin/v1/connections/${fx.connection.id}`, {
          token: server.adminToken,
          version: null,
          body: { ai_credit_limit: bad },
        });
        refused(connection, 'ai_credit_limit', 400, 'invalid_credit_limit');
      }
    });
  });

  test('paused processing: new notes wait as transcription_paused, and resuming starts them again', async () => {
    const paused = await admin(server, 'POST', '/processing/pause');
    assert.equal(paused.paused, true);
    try {
      const note = await createdNote(server, fx, (await fromUpload()).body);
      assert.equal(note.meeting_notes.status, 'transcription_paused');
      const resumed = await admin(server, 'POST', '/processing/resume');
      assert.equal(resumed.paused, false);
      assert.ok(resumed.blocks_changed >= 1);
      assert.equal((await ok(server, fx, 'GET', `/v1/blocks/${note.id}`)).meeting_notes.status, 'transcription_not_started');
    } finally {
      await admin(server, 'POST', '/processing/resume');
    }
  });
});

describe('meeting notes: create, on an engine that takes every listed language', () => {
  // Never processed (FOLIO_WORKERS=0): the openai engine is configured, not reached. The workspace
  // (and its jobs) goes before the server closes, so no later server on PostgreSQL picks them up.
  after(() => admin(server, 'DELETE', `/workspaces/${fx.workspaceId}`));
  const { server, fx } = useServer({
    env: { FOLIO_WORKERS: '0', FOLIO_TRANSCRIBER: 'openai', FOLIO_OPENAI_BASE_URL: 'http://127.0.0.1:9', FOLIO_OPENAI_API_KEY: 'unused' },
  });

  test('every language of the spec list is accepted', async () => {
    for (const language of ['auto', 'en', 'zh-CN', 'zh-TW', 'es', 'fr', 'de', 'ja', 'pl', 'he']) {
      const page = await makeSharedPage(server, fx);
      const upload = await uploadRecording(server, fx, wav(64_000), 'standup.wav');
      const note = await createdNote(server, fx, {
        source: { type: 'file_upload', file_upload_id: upload },
        parent: { type: 'page_id', page_id: page.id },
        language,
      });
      assert.equal(note.meeting_notes.status, 'transcription_not_started');
    }
  });
});

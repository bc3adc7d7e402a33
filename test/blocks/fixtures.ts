/**
 * Shared pieces of the block tests: one request block of every writable type, small request
 * helpers, and a server whose store the tests can seed with what no endpoint of this issue
 * creates (child pages under blocks, databases, meeting notes).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { ADMIN_TOKEN, buildInProcess } from '../platform/inProcess.js';
import type { AppContext } from '../../src/context.js';
import { insertPage } from '../../src/domain/pages/insertPage.js';
import { seedObject, type SeededObject } from '../helpers/seedObject.js';
import { textItem } from '../../src/domain/richText.js';

type Json = Record<string, any>;

export const rt = (content: string) => [{ type: 'text', text: { content } }];

/** One request block of each writable type (FACTS.md §9), with the member each should come back as. */
export function everyBlockType(): Array<{ request: Json; type: string; expect: (member: Json) => void }> {
  const text = (member: Json, content: string) => {
    assert.equal(member.rich_text.length, 1);
    assert.equal(member.rich_text[0].plain_text, content);
    assert.equal(member.rich_text[0].href, null);
  };
  const cases: Array<{ request: Json; type: string; expect: (member: Json) => void }> = [
    {
      type: 'paragraph',
      request: { paragraph: { rich_text: rt('para') } },
      expect: (m) => (text(m, 'para'), assert.deepEqual([m.color, m.icon], ['default', null])),
    },
    ...[1, 2, 3, 4].map((n) => ({
      type: `heading_${n}`,
      request: { type: `heading_${n}`, [`heading_${n}`]: { rich_text: rt(`h${n}`), is_toggleable: n === 2 } },
      expect: (m: Json) => (text(m, `h${n}`), assert.equal(m.is_toggleable, n === 2), assert.equal(m.color, 'default')),
    })),
    {
      type: 'bulleted_list_item',
      request: { bulleted_list_item: { rich_text: rt('bullet'), color: 'red' } },
      expect: (m) => (text(m, 'bullet'), assert.equal(m.color, 'red')),
    },
    {
      type: 'numbered_list_item',
      request: { numbered_list_item: { rich_text: rt('one'), list_start_index: 3, list_format: 'roman' } },
      expect: (m) => (text(m, 'one'), assert.equal(m.list_start_index, 3), assert.equal(m.list_format, 'roman')),
    },
    { type: 'to_do', request: { to_do: { rich_text: rt('task'), checked: true } }, expect: (m) => (text(m, 'task'), assert.equal(m.checked, true)) },
    { type: 'toggle', request: { toggle: { rich_text: rt('tog') } }, expect: (m) => text(m, 'tog') },
    {
      type: 'quote',
      request: { quote: { rich_text: rt('q'), color: 'gray_background' } },
      expect: (m) => (text(m, 'q'), assert.equal(m.color, 'gray_background')),
    },
    {
      type: 'callout',
      request: { callout: { rich_text: rt('note'), icon: { emoji: '💡' } } },
      expect: (m) => (text(m, 'note'), assert.deepEqual(m.icon, { type: 'emoji', emoji: '💡' })),
    },
    {
      type: 'code',
      request: { code: { rich_text: rt('let x = 1'), language: 'typescript', caption: rt('cap') } },
      expect: (m) => (text(m, 'let x = 1'), assert.equal(m.language, 'typescript'), assert.equal(m.caption[0].plain_text, 'cap')),
    },
    { type: 'divider', request: { divider: {} }, expect: (m) => assert.deepEqual(m, {}) },
    { type: 'equation', request: { equation: { expression: 'e=mc^2' } }, expect: (m) => assert.deepEqual(m, { expression: 'e=mc^2' }) },
    ...['image', 'video', 'audio', 'pdf'].map((type) => ({
      type,
      request: { [type]: { external: { url: `https://example.com/media/${type}.bin` } } },
      expect: (m: Json) => assert.deepEqual(m, { caption: [], type: 'external', external: { url: `https://example.com/media/${type}.bin` } }),
    })),
    {
      type: 'file',
      request: { file: { type: 'external', external: { url: 'https://example.com/files/report.pdf' }, caption: rt('the report') } },
      expect: (m) => {
        assert.equal(m.type, 'external');
        assert.deepEqual(m.external, { url: 'https://example.com/files/report.pdf' });
        assert.equal(m.name, 'report.pdf');
        assert.equal(m.caption[0].plain_text, 'the report');
      },
    },
    {
      type: 'bookmark',
      request: { bookmark: { url: 'https://example.com' } },
      expect: (m) => assert.deepEqual(m, { caption: [], url: 'https://example.com' }),
    },
    {
      type: 'embed',
      request: { embed: { url: 'https://example.com/embed' } },
      expect: (m) => assert.deepEqual(m, { caption: [], url: 'https://example.com/embed' }),
    },
    {
      type: 'table',
      request: {
        table: {
          table_width: 2,
          has_column_header: true,
          children: [{ table_row: { cells: [rt('a'), rt('b')] } }, { type: 'table_row', table_row: { cells: [[], rt('d')] } }],
        },
      },
      expect: (m) => assert.deepEqual(m, { table_width: 2, has_column_header: true, has_row_header: false }),
    },
    {
      type: 'column_list',
      request: {
        column_list: {
          children: [{ column: { children: [{ paragraph: { rich_text: rt('left') } }] } }, { column: { width_ratio: 0.5, children: [{ divider: {} }] } }],
        },
      },
      expect: (m) => assert.deepEqual(m, {}),
    },
    {
      type: 'synced_block',
      request: { synced_block: { synced_from: null, children: [{ paragraph: { rich_text: rt('synced') } }] } },
      expect: (m) => assert.deepEqual(m, { synced_from: null }),
    },
    {
      type: 'link_to_page',
      request: { link_to_page: { type: 'page_id', page_id: '0c2e7f3e9b4c4d5e8f6a7b8c9d0e1f2a' } },
      expect: (m) => assert.deepEqual(m, { type: 'page_id', page_id: '0c2e7f3e-9b4c-4d5e-8f6a-7b8c9d0e1f2a' }),
    },
    { type: 'table_of_contents', request: { table_of_contents: {} }, expect: (m) => assert.deepEqual(m, { color: 'default' }) },
    { type: 'breadcrumb', request: { breadcrumb: {} }, expect: (m) => assert.deepEqual(m, {}) },
  ];
  return cases;
}

/** The types that come back with has_children true in everyBlockType(). */
export const TYPES_WITH_CHILDREN = new Set(['table', 'column_list', 'synced_block']);

export async function append(server: { url: string }, token: string, parentId: string, children: Json[], extra: Json = {}, version?: string) {
  return call<Json>(server.url, 'PATCH', `/v1/blocks/${parentId}/children`, { token, version, body: { children, ...extra } });
}

export async function appendOk(server: { url: string }, token: string, parentId: string, children: Json[], extra: Json = {}): Promise<Json[]> {
  const res = await append(server, token, parentId, children, extra);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results;
}

/** Every child of a block, following next_cursor with the given page size. */
export async function listAll(server: { url: string }, token: string, parentId: string, pageSize = 100, version?: string): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const qs: string = `?page_size=${pageSize}${cursor ? `&start_cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await call<Json>(server.url, 'GET', `/v1/blocks/${parentId}/children${qs}`, { token, version });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.results);
    cursor = res.body.next_cursor;
    assert.equal(res.body.has_more, cursor !== null);
    if (!cursor) return out;
  }
  assert.fail('pagination did not end');
}

export function assertValidationError(res: { status: number; body: Json }, pattern: RegExp): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'validation_error');
  assert.match(String(res.body.message), pattern);
}

/**
 * A server built in-process (so its store is at hand) and listening on a real socket: the
 * factories of test/helpers work against it as against startTestServer.
 */
export async function startSeedableServer(): Promise<{ server: TestServer; ctx: AppContext }> {
  const { app, ctx } = await buildInProcess();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  ctx.config.publicUrl = url;
  const server = { url, adminToken: ADMIN_TOKEN, dataDir: ctx.config.dataDir, running: null as never, close: () => app.close() };
  return { server, ctx };
}

/** A page under a page or block, as page creation (another issue) will make it. */
export async function seedChildPage(
  ctx: AppContext,
  workspaceId: string,
  actorId: string,
  parent: { type: 'page_id' | 'block_id'; id: string },
  title: string,
) {
  return ctx.store.transaction((trx) =>
    insertPage(trx, { workspaceId, parentType: parent.type, parentId: parent.id, actorId, title: [textItem(title)], at: ctx.clock.now().toISOString() }),
  );
}

/** An object under a page, written now by `actorId` in its own transaction; returns its id. */
async function seedUnderPage(
  ctx: AppContext,
  workspaceId: string,
  actorId: string,
  pageId: string,
  object: Pick<SeededObject, 'object' | 'type' | 'position' | 'title' | 'content'>,
): Promise<string> {
  const id = randomUUID();
  const row = { ...object, id, workspace_id: workspaceId, parent_type: 'page_id' as const, parent_id: pageId };
  await ctx.store.transaction((trx) => seedObject(trx, row, actorId, new Date().toISOString()));
  return id;
}

/** An inline database under a page, as database creation (another issue) will make it. */
export async function seedChildDatabase(ctx: AppContext, workspaceId: string, actorId: string, pageId: string, title: string) {
  return seedUnderPage(ctx, workspaceId, actorId, pageId, {
    object: 'database',
    type: null,
    position: 1000,
    title,
    content: { title: [textItem(title)], description: [], icon: null, cover: null, is_inline: true },
  });
}

/** A meeting notes block, as its own endpoint (a later issue) will make it. */
export async function seedMeetingNotes(ctx: AppContext, workspaceId: string, actorId: string, pageId: string) {
  return seedUnderPage(ctx, workspaceId, actorId, pageId, {
    object: 'block',
    type: 'meeting_notes',
    position: 2000,
    title: '',
    content: { title: [textItem('Weekly sync')], status: 'transcription_not_started' },
  });
}

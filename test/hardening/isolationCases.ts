/**
 * The isolation matrix's table (issue 29 item 7): how each `/v1` operation of the published
 * OpenAPI document is aimed at an object its caller must not reach. `isolation.test.ts` asserts
 * this table names exactly the document's operations, so a new route without a case fails there.
 *
 * Three ways to exercise an operation:
 * - `aimed`: the request names the object (path or body); against an unshared object it must answer
 *   byte for byte what it answers for a missing id (the ids themselves substituted).
 * - `listing`: the request names no unreachable object; its results must hold none of them.
 * - `oauth`: a token endpoint given another integration's token or grant must answer as for an
 *   unknown one.
 */
import { randomInt } from 'node:crypto';

/** The objects of one workspace a caller must not reach, or as many fresh ids that exist nowhere. */
export interface Target {
  page: string;
  block: string;
  database: string;
  dataSource: string;
  comment: string;
  view: string;
  viewQuery: string;
  meetingNote: string;
  fileUpload: string;
  asyncTask: string;
  /** A person of another workspace. */
  user: string;
}

export interface MatrixRequest {
  method: string;
  path: string;
  body?: unknown;
}

/** What the caller itself has: a page (the other end of a move) and an uploaded recording. */
export interface Own {
  page: string;
  recording: string;
}

export type Case =
  | { mode: 'aimed'; request: (t: Target, own: Own) => MatrixRequest | MatrixRequest[] }
  | { mode: 'listing'; request: (t: Target) => MatrixRequest; results: (body: any) => unknown[] }
  | { mode: 'oauth' };

const title = (text: string) => ({ title: { title: [{ text: { content: text } }] } });
const paragraph = { paragraph: { rich_text: [{ text: { content: 'intruder' } }] } };
const results = (body: any): unknown[] => body.results;

/** Keyed `METHOD /v1/path/{param}` as the OpenAPI document writes them. */
export const CASES: Record<string, Case> = {
  'GET /v1/users/me': { mode: 'listing', request: () => ({ method: 'GET', path: '/v1/users/me' }), results: (body) => [body] },
  'GET /v1/users': { mode: 'listing', request: () => ({ method: 'GET', path: '/v1/users?page_size=100' }), results },
  'GET /v1/users/{user_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/users/${t.user}` }) },
  'POST /v1/pages': {
    mode: 'aimed',
    request: (t) => ({ method: 'POST', path: '/v1/pages', body: { parent: { page_id: t.page }, properties: title('intruder') } }),
  },
  'GET /v1/pages/{page_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/pages/${t.page}` }) },
  'PATCH /v1/pages/{page_id}': { mode: 'aimed', request: (t) => ({ method: 'PATCH', path: `/v1/pages/${t.page}`, body: { properties: title('renamed') } }) },
  'GET /v1/pages/{page_id}/properties/{property_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/pages/${t.page}/properties/title` }) },
  'GET /v1/pages/{page_id}/markdown': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/pages/${t.page}/markdown` }) },
  'PATCH /v1/pages/{page_id}/markdown': {
    mode: 'aimed',
    request: (t) => ({ method: 'PATCH', path: `/v1/pages/${t.page}/markdown`, body: { type: 'insert_content', insert_content: { content: 'intruder' } } }),
  },
  'POST /v1/pages/{page_id}/move': {
    mode: 'aimed',
    // Both ways: the unshared page under the caller's own, and the caller's page under the unshared one.
    request: (t, own) => [
      { method: 'POST', path: `/v1/pages/${t.page}/move`, body: { parent: { page_id: own.page } } },
      { method: 'POST', path: `/v1/pages/${own.page}/move`, body: { parent: { page_id: t.page } } },
      { method: 'POST', path: `/v1/pages/${own.page}/move`, body: { parent: { data_source_id: t.dataSource } } },
    ],
  },
  'GET /v1/blocks/{block_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/blocks/${t.block}` }) },
  'PATCH /v1/blocks/{block_id}': { mode: 'aimed', request: (t) => ({ method: 'PATCH', path: `/v1/blocks/${t.block}`, body: paragraph }) },
  'DELETE /v1/blocks/{block_id}': { mode: 'aimed', request: (t) => ({ method: 'DELETE', path: `/v1/blocks/${t.block}` }) },
  'GET /v1/blocks/{block_id}/children': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/blocks/${t.page}/children` }) },
  'PATCH /v1/blocks/{block_id}/children': {
    mode: 'aimed',
    request: (t) => ({ method: 'PATCH', path: `/v1/blocks/${t.page}/children`, body: { children: [paragraph] } }),
  },
  'POST /v1/databases': {
    mode: 'aimed',
    request: (t) => ({
      method: 'POST',
      path: '/v1/databases',
      body: { parent: { page_id: t.page }, title: [{ text: { content: 'intruder' } }], initial_data_source: { properties: { Name: { title: {} } } } },
    }),
  },
  'GET /v1/databases/{database_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/databases/${t.database}` }) },
  'PATCH /v1/databases/{database_id}': {
    mode: 'aimed',
    request: (t) => ({ method: 'PATCH', path: `/v1/databases/${t.database}`, body: { title: [{ text: { content: 'renamed' } }] } }),
  },
  'POST /v1/data_sources': {
    mode: 'aimed',
    request: (t) => ({ method: 'POST', path: '/v1/data_sources', body: { parent: { database_id: t.database }, properties: { Name: { title: {} } } } }),
  },
  'GET /v1/data_sources/{data_source_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/data_sources/${t.dataSource}` }) },
  'PATCH /v1/data_sources/{data_source_id}': {
    mode: 'aimed',
    request: (t) => ({ method: 'PATCH', path: `/v1/data_sources/${t.dataSource}`, body: { title: [{ text: { content: 'renamed' } }] } }),
  },
  'POST /v1/data_sources/{data_source_id}/query': {
    mode: 'aimed',
    request: (t) => ({ method: 'POST', path: `/v1/data_sources/${t.dataSource}/query`, body: {} }),
  },
  'GET /v1/data_sources/{data_source_id}/templates': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/data_sources/${t.dataSource}/templates` }) },
  'POST /v1/search': { mode: 'listing', request: () => ({ method: 'POST', path: '/v1/search', body: { query: 'Secret', page_size: 100 } }), results },
  'POST /v1/file_uploads': {
    // Creates the caller's own upload, naming no other object: its answer must not be one.
    mode: 'listing',
    request: () => ({ method: 'POST', path: '/v1/file_uploads', body: { filename: 'mine.txt' } }),
    results: (body) => [body],
  },
  'GET /v1/file_uploads': { mode: 'listing', request: () => ({ method: 'GET', path: '/v1/file_uploads?page_size=100' }), results },
  'GET /v1/file_uploads/{file_upload_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/file_uploads/${t.fileUpload}` }) },
  'POST /v1/file_uploads/{file_upload_id}/complete': { mode: 'aimed', request: (t) => ({ method: 'POST', path: `/v1/file_uploads/${t.fileUpload}/complete` }) },
  'POST /v1/file_uploads/{file_upload_id}/send': { mode: 'aimed', request: (t) => ({ method: 'POST', path: `/v1/file_uploads/${t.fileUpload}/send` }) },
  'POST /v1/blocks/meeting_notes': {
    mode: 'aimed',
    // Under the unshared page with the caller's own recording, and under it with the owner's.
    request: (t, own) => [
      {
        method: 'POST',
        path: '/v1/blocks/meeting_notes',
        body: { parent: { type: 'page_id', page_id: t.page }, source: { type: 'file_upload', file_upload_id: own.recording } },
      },
      {
        method: 'POST',
        path: '/v1/blocks/meeting_notes',
        body: { parent: { type: 'page_id', page_id: t.page }, source: { type: 'file_upload', file_upload_id: t.fileUpload } },
      },
    ],
  },
  'POST /v1/blocks/meeting_notes/query': { mode: 'listing', request: () => ({ method: 'POST', path: '/v1/blocks/meeting_notes/query', body: {} }), results },
  'POST /v1/comments': {
    mode: 'aimed',
    request: (t) => ({ method: 'POST', path: '/v1/comments', body: { parent: { page_id: t.page }, rich_text: [{ text: { content: 'intruder' } }] } }),
  },
  'GET /v1/comments': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/comments?block_id=${t.page}` }) },
  'GET /v1/comments/{comment_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/comments/${t.comment}` }) },
  'PATCH /v1/comments/{comment_id}': {
    mode: 'aimed',
    request: (t) => ({ method: 'PATCH', path: `/v1/comments/${t.comment}`, body: { rich_text: [{ text: { content: 'edited' } }] } }),
  },
  'DELETE /v1/comments/{comment_id}': { mode: 'aimed', request: (t) => ({ method: 'DELETE', path: `/v1/comments/${t.comment}` }) },
  'GET /v1/async_tasks/{task_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/async_tasks/${t.asyncTask}` }) },
  'GET /v1/views': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/views?database_id=${t.database}` }) },
  'POST /v1/views': {
    mode: 'aimed',
    request: (t) => ({ method: 'POST', path: '/v1/views', body: { database_id: t.database, data_source_id: t.dataSource, name: 'intruder', type: 'table' } }),
  },
  'GET /v1/views/{view_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/views/${t.view}` }) },
  'PATCH /v1/views/{view_id}': { mode: 'aimed', request: (t) => ({ method: 'PATCH', path: `/v1/views/${t.view}`, body: { name: 'renamed' } }) },
  'DELETE /v1/views/{view_id}': { mode: 'aimed', request: (t) => ({ method: 'DELETE', path: `/v1/views/${t.view}` }) },
  'POST /v1/views/{view_id}/queries': { mode: 'aimed', request: (t) => ({ method: 'POST', path: `/v1/views/${t.view}/queries`, body: {} }) },
  'GET /v1/views/{view_id}/queries/{query_id}': { mode: 'aimed', request: (t) => ({ method: 'GET', path: `/v1/views/${t.view}/queries/${t.viewQuery}` }) },
  'DELETE /v1/views/{view_id}/queries/{query_id}': {
    mode: 'aimed',
    request: (t) => ({ method: 'DELETE', path: `/v1/views/${t.view}/queries/${t.viewQuery}` }),
  },
  'GET /v1/custom_emojis': { mode: 'listing', request: () => ({ method: 'GET', path: '/v1/custom_emojis?page_size=100' }), results },
  'POST /v1/oauth/token': { mode: 'oauth' },
  'POST /v1/oauth/introspect': { mode: 'oauth' },
  'POST /v1/oauth/revoke': { mode: 'oauth' },
};

/**
 * As many ids as `target` names, each fresh and of the same shape (prefix, dashes, length: the
 * answers' lengths are compared too): what "missing" is compared with.
 */
export function missingTarget(target: Target): Target {
  const fresh = (id: string) => {
    const prefix = id.lastIndexOf('_') + 1;
    return id.slice(0, prefix) + id.slice(prefix).replace(/[0-9a-f]/g, () => randomInt(16).toString(16));
  };
  return Object.fromEntries(Object.entries(target).map(([key, id]) => [key, fresh(id)])) as unknown as Target;
}

/** `text` with every id of `target` replaced by its key: two answers about different ids compare equal. */
export function withoutIds(text: string, target: Target): string {
  let out = text;
  for (const [key, id] of Object.entries(target)) {
    out = out.replaceAll(id, `<${key}>`).replaceAll(id.replaceAll('-', ''), `<${key}>`);
  }
  return out;
}

/** Every id a listing's results carry (ids, parents, anything that names an object), as dashed uuids. */
export function idsIn(value: unknown): Set<string> {
  const found = new Set<string>();
  const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
  for (const match of JSON.stringify(value).matchAll(uuid)) {
    const hex = match[0].replaceAll('-', '');
    found.add(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  }
  return found;
}

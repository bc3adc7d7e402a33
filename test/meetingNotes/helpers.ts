/**
 * Meeting notes tests: recordings uploaded as an integration would (create, send), notes created
 * through HTTP, and polling a block until processing reaches a status.
 */
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import type { Fixture } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';
import { created, sent } from '../fileUploads/helpers.js';

type Json = Record<string, any>;

/** An `uploaded` upload of `bytes`, ready to be a meeting note's source. */
export async function uploadRecording(server: TestServer, fx: Fixture, bytes: Buffer, filename: string, contentType?: string): Promise<string> {
  const upload = await created(server, fx, { filename, ...(contentType ? { content_type: contentType } : {}) });
  const done = await sent(server, fx, upload.id, bytes, { filename, contentType });
  assert.equal(done.status, 'uploaded');
  return upload.id as string;
}

export function createNote(server: TestServer, token: string, body: unknown, version?: string): Promise<HttpResult<Json>> {
  return call<Json>(server.url, 'POST', '/v1/blocks/meeting_notes', { token, body, version });
}

export async function createdNote(server: TestServer, fx: Fixture, body: unknown): Promise<Json> {
  const res = await createNote(server, fx.token, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export const FINAL = ['notes_ready', 'transcription_failed'];

/** Polls GET /v1/blocks/{id} until its status is one of `statuses`; returns the block and every status seen, in order. */
export async function waitForStatus(
  server: TestServer,
  fx: Fixture,
  blockId: string,
  statuses: readonly string[] = FINAL,
  timeoutMs = 120_000,
): Promise<{ block: Json; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call<Json>(server.url, 'GET', `/v1/blocks/${blockId}`, { token: fx.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const status = res.body.meeting_notes.status as string;
    if (seen[seen.length - 1] !== status) seen.push(status);
    if (statuses.includes(status)) return { block: res.body, seen };
    assert.ok(Date.now() < deadline, `block ${blockId} still ${status} after ${timeoutMs} ms (seen: ${seen.join(' → ')})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every child block of `id`, all pages of them. */
export async function childrenOf(server: TestServer, fx: Fixture, id: string): Promise<Json[]> {
  const out: Json[] = [];
  let cursor: string | undefined;
  do {
    const res = await call<Json>(server.url, 'GET', `/v1/blocks/${id}/children${cursor ? `?start_cursor=${cursor}` : ''}`, { token: fx.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.results);
    cursor = res.body.has_more ? res.body.next_cursor : undefined;
  } while (cursor);
  return out;
}

/** The plain text of a block's rich text member. */
export function textOf(block: Json): string {
  const member = block[block.type];
  return (member?.rich_text ?? []).map((t: Json) => t.plain_text).join('');
}

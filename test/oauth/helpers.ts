import assert from 'node:assert/strict';
import { Client, isHTTPResponseError } from '@notionhq/client';
import type { TestServer } from '../helpers/server.js';
import { admin, type Fixture } from '../helpers/factories.js';
import { call } from '../helpers/http.js';

type Json = Record<string, any>;

export const quiet = () => {};

export const CAPABILITIES = ['read_content', 'update_content', 'insert_content', 'user_info_with_email'];

export async function makeIntegration(server: TestServer, redirectUris: string[], name = 'Acme Sync'): Promise<Json> {
  return admin(server, 'POST', '/integrations', { name, redirect_uris: redirectUris, capabilities: CAPABILITIES });
}

/**
 * Three top-level pages (A, B, C) and a child of A, made through the fixture's own connection:
 * an install that picks A and B must see A, its child and B, and never C.
 */
export async function makePages(server: TestServer, fx: Fixture): Promise<{ a: string; child: string; b: string; c: string }> {
  const top: string[] = [];
  for (const title of ['Alpha plans', 'Beta notes', 'Gamma secrets']) {
    const page = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title });
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: page.id });
    top.push(page.id);
  }
  const notion = new Client({ auth: fx.token, baseUrl: server.url, logger: quiet });
  const child = await notion.pages.create({ parent: { page_id: top[0] }, properties: { title: { title: [{ text: { content: 'Alpha child' } }] } } });
  return { a: top[0], b: top[1], c: top[2], child: child.id };
}

/** The ids of every page a token sees through search. */
export async function searchIds(server: TestServer, token: string): Promise<string[]> {
  const notion = new Client({ auth: token, baseUrl: server.url, logger: quiet });
  const found = await notion.search({ filter: { property: 'object', value: 'page' } });
  return found.results.map((r) => r.id).sort();
}

/**
 * An OAuth endpoint's refusal as the SDK surfaces it (its codes are not the API's, so the SDK
 * reports an HTTP response error) and as the body says it: status, `error` and `code`.
 */
export async function expectOAuthError(promise: Promise<unknown>, status: number, error: string): Promise<Json> {
  try {
    await promise;
  } catch (thrown) {
    assert.ok(isHTTPResponseError(thrown), `an HTTP response error, got ${String(thrown)}`);
    assert.equal(thrown.status, status);
    const body = JSON.parse(thrown.body) as Json;
    assert.equal(body.error, error);
    assert.equal(body.code, error);
    assert.equal(body.object, 'error');
    assert.equal(typeof body.error_description, 'string');
    return body;
  }
  assert.fail(`expected ${error}`);
}

export async function usersMeStatus(server: TestServer, token: string): Promise<number> {
  return (await call(server.url, 'GET', '/v1/users/me', { token })).status;
}

/**
 * What the query tests (issue 12) share: the test clock, small data sources built over HTTP
 * whose pages carry labels, and query calls that follow cursors. Expected results are written
 * as labels so a failure reads "expected [a, c], got [a, b]" instead of two lists of UUIDs.
 */
import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { admin } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';

export type Json = Record<string, any>;

export const text = (content: string) => [{ type: 'text', text: { content } }];

/**
 * The instant every query test runs at unless it moves the clock: a Sunday (the last day of its
 * ISO week) and the 31st of a month that follows a leap February, so week starts and calendar
 * clamping (31 March − 1 month = 29 February) are both visible in the results.
 */
export const NOW = '2024-03-31T10:00:00.000Z';

/** The environment that lets the admin plane set the server's clock (POST /admin/v1/clock). */
export const TEST_CLOCK_ENV = { FOLIO_TEST_CLOCK: '1' };

export async function setClock(server: TestServer, now: string): Promise<void> {
  await admin(server, 'POST', '/clock', { now });
}

/** A call that must answer 200; the failure message shows the answer. */
export async function ok(server: TestServer, token: string, method: string, path: string, body?: unknown, version?: string): Promise<Json> {
  const res = await call<Json>(server.url, method, path, { token, body, version });
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export interface QueryOptions {
  version?: string;
  /** Sent as repeated `filter_properties` query parameters, as the SDK sends them. */
  filterProperties?: readonly string[];
}

export function queryPath(dataSourceId: string, filterProperties?: readonly string[]): string {
  const search = (filterProperties ?? []).map((p) => `filter_properties=${encodeURIComponent(p)}`).join('&');
  return `/v1/data_sources/${dataSourceId}/query${search ? `?${search}` : ''}`;
}

export function query(server: TestServer, token: string, dataSourceId: string, body: Json = {}, options: QueryOptions = {}): Promise<HttpResult<Json>> {
  return call<Json>(server.url, 'POST', queryPath(dataSourceId, options.filterProperties), { token, body, version: options.version });
}

/** Every page of a listing, following `next_cursor`; each answer is checked for the list shape. */
export async function queryAll(server: TestServer, token: string, dataSourceId: string, body: Json = {}, options: QueryOptions = {}): Promise<Json[]> {
  const results: Json[] = [];
  let cursor: string | undefined;
  for (let round = 0; ; round++) {
    assert.ok(round < 1000, 'a listing that never ends');
    const res = await query(server, token, dataSourceId, { ...body, ...(cursor ? { start_cursor: cursor } : {}) }, options);
    assert.equal(res.status, 200, `query ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    assertListShape(res.body);
    if (body.page_size !== undefined) assert.ok(res.body.results.length <= body.page_size, `${res.body.results.length} results, page_size ${body.page_size}`);
    results.push(...res.body.results);
    if (!res.body.has_more) return results;
    cursor = res.body.next_cursor;
  }
}

/** The list a query answers; a listing that did not reach the 10,000-result cap is `complete`. */
export function assertListShape(body: Json, requestStatus: Json = { type: 'complete' }): void {
  assert.equal(body.object, 'list');
  assert.equal(body.type, 'page_or_data_source');
  assert.deepEqual(body.page_or_data_source, {});
  assert.ok(Array.isArray(body.results));
  assert.equal(typeof body.has_more, 'boolean');
  // The SDK's iterators loop on a truthy next_cursor, so the last page must carry null (FACTS.md §3).
  assert.equal(body.has_more, body.next_cursor !== null, `has_more ${body.has_more} with next_cursor ${body.next_cursor}`);
  assert.deepEqual(body.request_status, requestStatus);
}

/** A data source made through POST /v1/databases, and its schema as GET /v1/data_sources shows it. */
export interface Source {
  databaseId: string;
  id: string;
  properties: Record<string, Json>;
}

export async function createSource(server: TestServer, token: string, parentPageId: string, title: string, properties: Json): Promise<Source> {
  const database = await ok(server, token, 'POST', '/v1/databases', {
    parent: { page_id: parentPageId },
    title: text(title),
    initial_data_source: { properties },
  });
  const id = database.data_sources[0].id as string;
  const source = await ok(server, token, 'GET', `/v1/data_sources/${id}`);
  return { databaseId: database.id, id, properties: source.properties };
}

export function createPage(server: TestServer, token: string, dataSourceId: string, properties: Json): Promise<Json> {
  return ok(server, token, 'POST', '/v1/pages', { parent: { data_source_id: dataSourceId }, properties });
}

export function updatePage(server: TestServer, token: string, pageId: string, body: Json): Promise<Json> {
  return ok(server, token, 'PATCH', `/v1/pages/${pageId}`, body);
}

/** Page ids by label, both ways; ids a test did not label read as `?<id>`. */
export class Labels {
  private readonly ids = new Map<string, string>();
  private readonly labels = new Map<string, string>();

  add(label: string, id: string): void {
    assert.ok(!this.ids.has(label), `label ${label} used twice`);
    this.ids.set(label, id);
    this.labels.set(id, label);
  }

  id(label: string): string {
    const id = this.ids.get(label);
    assert.ok(id, `no page labelled ${label}`);
    return id;
  }

  /** The labels of the pages, in their order. */
  of(pagesOrIds: ReadonlyArray<Json | string>): string[] {
    return pagesOrIds.map((p) => (typeof p === 'string' ? p : (p.id as string))).map((id) => this.labels.get(id) ?? `?${id}`);
  }

  all(): string[] {
    return [...this.ids.keys()];
  }
}

export function expectValidation(res: HttpResult<Json>, path: RegExp | string): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'validation_error', JSON.stringify(res.body));
  if (typeof path === 'string') assert.ok(String(res.body.message).includes(path), `${res.body.message} should name ${path}`);
  else assert.match(String(res.body.message), path);
}

export function expectError(res: HttpResult<Json>, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.object, 'error');
  assert.equal(res.body.code, code, JSON.stringify(res.body));
}

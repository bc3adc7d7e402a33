import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.js';
import { call, type HttpResult } from '../helpers/http.js';
import type { Fixture } from '../helpers/factories.js';

type Json = Record<string, any>;

export const text = (content: string) => [{ type: 'text', text: { content } }];

/** A JSON call that must succeed; the failure message shows the body. */
export async function ok(server: TestServer, fx: Fixture, method: string, path: string, body?: unknown, version?: string): Promise<Json> {
  const res = await call<Json>(server.url, method, path, { token: fx.token, body, version });
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function fails(server: TestServer, fx: Fixture, method: string, path: string, body?: unknown, version?: string): Promise<HttpResult<Json>> {
  return call<Json>(server.url, method, path, { token: fx.token, body, version });
}

export function expectValidation(res: HttpResult<Json>, field: RegExp | string): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'validation_error', JSON.stringify(res.body));
  if (typeof field === 'string') assert.ok(String(res.body.message).includes(field), `${res.body.message} should name ${field}`);
  else assert.match(String(res.body.message), field);
}

/** Every property type of issue 3 item 5, as a schema request. */
export function everyTypeSchema(relatedDataSourceId: string): Json {
  return {
    Name: { title: {} },
    Notes: { rich_text: {} },
    Price: { number: { format: 'dollar' } },
    Kind: { select: { options: [{ name: 'A', color: 'red' }, { name: 'B' }] } },
    Tags: { multi_select: { options: [{ name: 'x' }, { name: 'y' }] } },
    Stage: { status: {} },
    Due: { date: {} },
    Owners: { people: {} },
    Attachments: { files: {} },
    Done: { checkbox: {} },
    Site: { url: {} },
    Mail: { email: {} },
    Phone: { phone_number: {} },
    Double: { formula: { expression: 'prop("Price") * 2' } },
    Tasks: { relation: { data_source_id: relatedDataSourceId, type: 'dual_property', dual_property: {} } },
    Points: { rollup: { relation_property_name: 'Tasks', rollup_property_name: 'Points', function: 'sum' } },
    Created: { created_time: {} },
    Creator: { created_by: {} },
    Edited: { last_edited_time: {} },
    Editor: { last_edited_by: {} },
    Ref: { unique_id: { prefix: 'REF' } },
    Verified: { verification: {} },
  };
}

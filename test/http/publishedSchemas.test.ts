/**
 * Issue 26 item 7: as lenient as the service. For every operation of the service's published
 * OpenAPI document (`@notionhq/notion-mcp-server`, scripts/notion-openapi.json), request bodies
 * and query strings are generated from its request schemas with json-schema-faker (seeded,
 * PER_OPERATION each) and sent to a real server, with real ids put where the schema needs an
 * existing object. None may be refused for its shape: a 400 `validation_error`, `invalid_json` or
 * `invalid_request` fails the test unless an entry below names it with its reason.
 *
 * Path parameters are the seeded objects (fresh ones for a request that changes its object).
 * Three lists say where the test departs from the document, each entry with its evidence, and
 * docs/decisions.md ("Published request schemas") repeats them:
 * - SUBSTITUTIONS: values the schema types as free strings but the service reads as references
 *   to existing objects (ids, cursors, property names); the test puts real ones there.
 * - NARROWINGS: where the document is looser than the service itself (or than what its own MCP
 *   server sends); the test narrows the schema before generating.
 * - STATE_REFUSALS: refusals that depend on what the store holds, not on the body's shape.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { generate, type JsonSchema } from 'json-schema-faker';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call, type HttpResult } from '../helpers/http.js';

type Json = any;

const PUBLISHED: Json = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@notionhq/notion-mcp-server/scripts/notion-openapi.json'), 'utf8'));
const PER_OPERATION = Number(process.env.PUBLISHED_COUNT ?? 20);
const SEED = Number(process.env.PUBLISHED_SEED ?? 2026);
/** What a refusal for the body's shape answers with (docs/errors.md). */
const SHAPE_CODES = new Set(['validation_error', 'invalid_json', 'invalid_request']);

/** The objects a generated request refers to: some made once, some fresh for each request. */
interface Targets {
  user: string;
  page: string;
  otherPage: string;
  database: string;
  dataSource: string;
  block: string;
  childOfPage: string;
}

interface Operation {
  id: string;
  method: string;
  path: string;
  version: string;
  body?: Json;
  query?: Json;
}

interface Narrowing {
  /** An operationId, or null for the document's shared components (block and rich-text requests). */
  operation: string | null;
  field: string;
  reason: string;
  narrow: (schemas: { body?: Json; query?: Json; components?: Json }) => void;
}

interface Substitution {
  operation: string | null;
  field: string;
  reason: string;
  put: (request: { body?: Json; query?: Json }, targets: Targets) => void;
}

interface StateRefusal {
  operation: string;
  message: RegExp;
  reason: string;
  when?: (body: Json) => boolean;
}

const pageSize = { type: 'integer', minimum: 1, maximum: 100 };
const nonEmpty = { type: 'string', minLength: 1 };
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

const NARROWINGS: Narrowing[] = [
  ...['get-users', 'get-block-children', 'retrieve-a-page-property', 'retrieve-a-comment', 'list-data-source-templates'].map((operation) => ({
    operation,
    field: 'query.page_size',
    reason: 'the document describes it as "Maximum: 100" without a bound; the service refuses 0, negatives and more than 100 (FACTS.md §6)',
    narrow: (s: Json) => void (s.query.properties.page_size = pageSize),
  })),
  ...['post-search', 'query-data-source'].map((operation) => ({
    operation,
    field: 'body.page_size',
    reason: 'the document describes it as "Maximum: 100" without a bound; the service refuses 0, negatives and more than 100 (FACTS.md §6)',
    narrow: (s: Json) => void (s.body.properties.page_size = pageSize),
  })),
  {
    operation: 'post-search',
    field: 'body.filter, body.sort',
    reason:
      'the descriptions say the only filter property is `object` and the only sort timestamp `last_edited_time`, with `ascending`/`descending`; the SDK (search.d.ts) requires both members of each',
    narrow: (s) => {
      s.body!.properties.filter = {
        type: 'object',
        required: ['property', 'value'],
        properties: { property: { const: 'object' }, value: { enum: ['page', 'data_source'] } },
      };
      s.body!.properties.sort = {
        type: 'object',
        required: ['timestamp', 'direction'],
        properties: { timestamp: { const: 'last_edited_time' }, direction: { enum: ['ascending', 'descending'] } },
      };
    },
  },
  {
    operation: null,
    field: 'components.*BlockRequest: the member its type names',
    reason:
      'the document leaves a block request with no required member, so `{}` is valid there; the service checks each block variant and refuses a block without its type member ("body.children[0].paragraph should be defined")',
    narrow: (s) => {
      for (const [name, schema] of Object.entries<Json>(s.components!.schemas)) {
        if (name.endsWith('BlockRequest')) schema.required = [name.replace(/BlockRequest$/, '').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
      }
    },
  },
  {
    operation: 'update-a-block',
    field: 'body.type',
    reason:
      'an object under the literal name `type` is the document\'s placeholder for "the block type key with the properties to update" (its description); the service reads `type` as the block type\'s name',
    narrow: (s) => void delete s.body!.properties.type,
  },
  {
    operation: 'patch-page',
    field: 'body.icon.emoji, body.cover.external.url',
    reason: 'the service takes no empty strings where a value is expected (its JSON conventions; makenotion/notion-sdk-js#160)',
    narrow: (s) => {
      s.body!.properties.icon.properties.emoji = nonEmpty;
      s.body!.properties.cover.properties.external.properties.url = nonEmpty;
    },
  },
  {
    operation: 'post-page',
    field: 'body.children, body.icon, body.cover',
    reason:
      'typed as strings (`format: json`) because the MCP server decodes a JSON string into the object before it sends (src/openapi-mcp-server/mcp/proxy.ts, deserializeParams): the service receives blocks and file objects',
    narrow: (s) => {
      s.body!.properties.children = { type: 'array', maxItems: 3, items: ref('blockObjectRequest') };
      s.body!.properties.icon = { type: 'object', required: ['emoji'], properties: { emoji: nonEmpty }, additionalProperties: false };
      s.body!.properties.cover = {
        type: 'object',
        required: ['external'],
        properties: {
          type: { const: 'external' },
          external: { type: 'object', required: ['url'], properties: { url: nonEmpty }, additionalProperties: false },
        },
        additionalProperties: false,
      };
    },
  },
  {
    operation: 'create-a-data-source',
    field: 'body.parent',
    reason:
      'a data source is added to a database: the SDK (data-sources.d.ts, ParentOfDataSourceRequest) and the reference take `{type?: "database_id", database_id}`; the document\'s page parent is the parent of a new database',
    narrow: (s) => {
      s.body!.properties.parent = {
        type: 'object',
        required: ['database_id'],
        properties: { type: { const: 'database_id' }, database_id: { type: 'string' } },
      };
    },
  },
  {
    operation: 'move-page',
    field: 'body.parent',
    reason:
      'FACTS.md §10.3: the document\'s `database_id` and `workspace` move parents are stale; the service takes `page_id` or `data_source_id` ("Database parent must use data_source_id")',
    narrow: (s) => {
      s.body!.properties.parent = { type: 'object', required: ['page_id'], properties: { type: { const: 'page_id' }, page_id: { type: 'string' } } };
    },
  },
  {
    operation: 'query-data-source',
    field: 'body.filter',
    reason:
      'the document leaves the filter an open object; the service refuses `{}` ("body.filter.or should be defined…", langchain-ai/langchain#18009) and checks a filter against the data source\'s properties, so the test sends a real one',
    narrow: (s) => {
      s.body!.properties.filter = {
        type: 'object',
        required: ['property', 'number'],
        properties: {
          property: { const: 'Score' },
          number: { type: 'object', required: ['greater_than'], properties: { greater_than: { type: 'integer' } }, additionalProperties: false },
        },
        additionalProperties: false,
      };
    },
  },
  {
    operation: null,
    field: 'components.richTextRequest.text.link.url',
    reason:
      'the service takes no empty strings where a value is expected (its JSON conventions; makenotion/notion-sdk-js#160): an empty link is sent as `link: null`',
    narrow: (s) => void (s.components!.schemas.richTextRequest.properties.text.properties.link.properties.url = nonEmpty),
  },
  {
    operation: 'update-page-markdown',
    field: 'body: the operation member',
    reason:
      'the document\'s description says "Specify exactly one edit operation. Set `type` to the operation name and provide the matching object"; the SDK (pages.d.ts) types it as one variant per `type`, and `position` as `{type: "start" | "end"}`',
    narrow: (s) => {
      const ops = s.body!.properties;
      ops.insert_content.properties.position.required = ['type'];
      s.body = {
        oneOf: ['replace_content', 'update_content', 'insert_content', 'replace_content_range'].map((type) => ({
          type: 'object',
          required: ['type', type],
          properties: { type: { const: type }, [type]: ops[type] },
          additionalProperties: false,
        })),
      };
    },
  },
];

const SUBSTITUTIONS: Substitution[] = [
  {
    operation: null,
    field: 'start_cursor (body or query)',
    reason: "a cursor is the server's own opaque string, valid only as returned; a made-up one is refused by the service too",
    put: (r) => {
      delete r.body?.start_cursor;
      delete r.query?.start_cursor;
    },
  },
  {
    operation: 'retrieve-a-comment',
    field: 'query.block_id',
    reason: 'an existing page shared with the connection',
    put: (r, t) => void (r.query.block_id = t.page),
  },
  {
    operation: 'patch-block-children',
    field: 'body.after',
    reason: 'the id of an existing child of the block appended to',
    put: (r, t) => {
      if (r.body.after !== undefined) r.body.after = t.childOfPage;
    },
  },
  {
    operation: 'post-page',
    field: 'body.parent.page_id, body.parent.database_id',
    reason: 'an existing page or database shared with the connection',
    put: (r, t) => {
      if (r.body.parent.page_id !== undefined) r.body.parent.page_id = t.page;
      if (r.body.parent.database_id !== undefined) r.body.parent.database_id = t.database;
    },
  },
  {
    operation: 'create-a-comment',
    field: 'body.parent.page_id',
    reason: 'an existing page shared with the connection',
    put: (r, t) => void (r.body.parent.page_id = t.page),
  },
  {
    operation: 'create-a-data-source',
    field: 'body.parent.database_id',
    reason: 'an existing database shared with the connection',
    put: (r, t) => void (r.body.parent.database_id = t.database),
  },
  {
    operation: 'move-page',
    field: 'body.parent.page_id',
    reason: 'an existing page that is not the page moved nor under it',
    put: (r, t) => void (r.body.parent.page_id = t.otherPage),
  },
  {
    operation: 'query-data-source',
    field: 'body.sorts[].property',
    reason: 'a property of the data source queried',
    put: (r) => {
      for (const sort of r.body.sorts ?? []) sort.property = 'Score';
    },
  },
];

const STATE_REFUSALS: StateRefusal[] = [
  {
    operation: 'update-page-markdown',
    message: /should match text of the page/,
    reason: 'FACTS.md §9: a selection or `old_str` that the page does not hold is a validation_error',
  },
  {
    operation: 'update-page-markdown',
    message: /This edit would delete/,
    reason: 'FACTS.md §9: deleting a child page or database needs `allow_deleting_content`',
  },
  {
    operation: 'update-page-markdown',
    message: /body\.update_content\.content_updates\[\d+\]\.old_str should match one place/,
    reason: 'FACTS.md §9: an `old_str` found more than once needs `replace_all_matches`',
  },
  ...['patch-page', 'query-data-source'].map((operation) => ({
    operation,
    message: /body\.archived should be not present/,
    when: (body: Json) => typeof body.archived === 'boolean' && typeof body.in_trash === 'boolean' && body.archived !== body.in_trash,
    reason:
      'deliberate: `archived` and `in_trash` with different values are ambiguous; Folio refuses rather than guess (docs/decisions.md "Old callers sending both")',
  })),
];

/** The document's operations, each with its version (markdown names 2026-03-11, the rest default to 2025-09-03). */
function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries<Json>(PUBLISHED.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const params: Json[] = (op.parameters ?? []).map((p: Json) => (p.$ref ? PUBLISHED.components.parameters[p.$ref.split('/').pop()] : p));
      const version = params.find((p) => p.name === 'Notion-Version')?.schema?.default ?? '2025-09-03';
      const queryParams = params.filter((p) => p.in === 'query');
      const query = queryParams.length
        ? {
            type: 'object',
            required: queryParams.filter((p) => p.required).map((p) => p.name),
            properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])),
          }
        : undefined;
      out.push({ id: op.operationId, method: method.toUpperCase(), path, version, body: op.requestBody?.content?.['application/json']?.schema, query });
    }
  }
  return out;
}

/** The document's shared components, with the narrowings that apply to them. */
function narrowComponents(): Json {
  const components = structuredClone(PUBLISHED.components);
  for (const narrowing of NARROWINGS) if (narrowing.operation === null) narrowing.narrow({ components });
  return components;
}

function toQuery(query: Json | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries<Json>(query)) for (const one of [value].flat()) params.append(key, String(one));
  const text = params.toString();
  return text ? `?${text}` : '';
}

describe('published request schemas: none refused for its shape', () => {
  const { server, fx } = useServer();
  const shared: Partial<Targets> = {};
  const v1 = (method: string, path: string, body?: unknown, version?: string) => call<Json>(server.url, method, path, { token: fx.token, body, version });
  const ok = async (result: Promise<HttpResult<Json>>) => {
    const res = await result;
    assert.ok(res.status === 200, `setup: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const newPage = async (title: string) =>
    (await ok(v1('POST', '/v1/pages', { parent: { page_id: shared.page }, properties: { title: { title: [{ text: { content: title } }] } } }))).id as string;
  const newBlock = async () =>
    (await ok(v1('PATCH', `/v1/blocks/${shared.page}/children`, { children: [{ paragraph: { rich_text: [{ text: { content: 'block' } }] } }] }))).results[0]
      .id as string;

  before(async () => {
    shared.user = fx.user.id;
    shared.page = (await makeSharedPage(server, fx)).id;
    const db = await ok(
      v1('POST', '/v1/databases', {
        parent: { type: 'page_id', page_id: shared.page },
        title: [{ text: { content: 'Scores' } }],
        initial_data_source: { properties: { Name: { title: {} }, Score: { number: {} } } },
      }),
    );
    shared.database = db.id;
    shared.dataSource = db.data_sources[0].id;
    shared.childOfPage = await newBlock();
    shared.block = shared.childOfPage;
    shared.otherPage = await newPage('Destination');
  });

  /** Objects a request changes (trashes, moves, rewrites) are made afresh for it, so one request cannot decide the next's answer. */
  async function targetsFor(op: Operation): Promise<Targets> {
    const targets = { ...shared } as Targets;
    if (['patch-page', 'move-page', 'update-page-markdown', 'patch-block-children'].includes(op.id)) {
      targets.page = await newPage('Fresh');
      if (op.id === 'patch-block-children')
        targets.childOfPage = (await ok(v1('PATCH', `/v1/blocks/${targets.page}/children`, { children: [{ paragraph: { rich_text: [] } }] }))).results[0].id;
    }
    if (['update-a-block', 'delete-a-block'].includes(op.id)) targets.block = await newBlock();
    return targets;
  }

  test('every published operation is generated and sent', async (t) => {
    const components = narrowComponents();
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    const ops = operations();
    assert.ok(ops.length >= 20, `${ops.length} operations in the published document`);
    // A list entry naming an operation the document no longer has would hide nothing and mislead.
    const named = new Set(ops.map((op) => op.id));
    for (const entry of [...NARROWINGS, ...SUBSTITUTIONS, ...STATE_REFUSALS]) {
      assert.ok(entry.operation === null || named.has(entry.operation), `${entry.operation} is an operation of the published document`);
    }
    for (const [index, op] of ops.entries()) {
      const schemas = { body: structuredClone(op.body), query: structuredClone(op.query) };
      for (const narrowing of NARROWINGS) if (narrowing.operation === op.id) narrowing.narrow(schemas);
      for (let i = 0; i < PER_OPERATION; i++) {
        const options = { seed: SEED + index * 1000 + i, maxDefaultItems: 3, maxDepth: 6 };
        const request: { body?: Json; query?: Json } = {
          body: schemas.body ? await generate({ ...schemas.body, components } as JsonSchema, options) : undefined,
          query: schemas.query ? await generate({ ...schemas.query, components } as JsonSchema, options) : undefined,
        };
        const targets = await targetsFor(op);
        for (const s of SUBSTITUTIONS) if (s.operation === null || s.operation === op.id) s.put(request, targets);
        const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
          const byName: Record<string, string> = {
            user_id: targets.user,
            block_id: op.id === 'patch-block-children' || op.id === 'get-block-children' ? targets.page : targets.block,
            page_id: targets.page,
            property_id: 'title',
            data_source_id: targets.dataSource,
            database_id: targets.database,
          };
          return byName[name]!;
        });
        const res = await v1(op.method, path + toQuery(request.query), request.body, op.version);
        statuses.set(`${op.id} ${res.status}`, (statuses.get(`${op.id} ${res.status}`) ?? 0) + 1);
        if (res.status >= 500) problems.push(`${op.id}: ${res.status} ${JSON.stringify(res.body)} for ${JSON.stringify(request)}`);
        if (res.status !== 400 || !SHAPE_CODES.has(res.body?.code)) continue;
        const known = STATE_REFUSALS.find((s) => s.operation === op.id && s.message.test(res.body.message) && (!s.when || s.when(request.body)));
        if (!known) problems.push(`${op.id} (${op.method} ${path}): ${res.body.code} ${res.body.message}\n    for ${JSON.stringify(request).slice(0, 600)}`);
      }
    }
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    const succeeded = [...statuses].filter(([key]) => / 2\d\d$/.test(key)).reduce((n, [, count]) => n + count, 0);
    t.diagnostic(`${ops.length} operations, ${sent} requests, ${succeeded} answered 2xx`);
    assert.deepEqual(problems, [], `refused for its shape:\n${problems.join('\n')}`);
    // Each operation must have been answered with a success at least once, or the test proves little.
    for (const op of ops) {
      const successes = [...statuses].filter(([key]) => key.startsWith(`${op.id} 2`)).reduce((n, [, count]) => n + count, 0);
      assert.ok(successes > 0, `${op.id} never succeeded: ${JSON.stringify([...statuses].filter(([key]) => key.startsWith(`${op.id} `)))}`);
    }
  });
});

describe('the places aligned with the published schemas', () => {
  const { server, fx } = useServer();
  const v1 = (method: string, path: string, body?: unknown, version?: string) => call<Json>(server.url, method, path, { token: fx.token, body, version });

  test('a workspace parent given as {type: "workspace"} alone creates at the workspace level; an empty parent is still refused', async () => {
    const page = await v1('POST', '/v1/pages', { parent: { type: 'workspace' }, properties: { title: { title: [{ text: { content: 'Top' } }] } } });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.deepEqual(page.body.parent, { type: 'workspace', workspace: true });
    const database = await v1('POST', '/v1/databases', { parent: { type: 'workspace' }, initial_data_source: { properties: { Name: { title: {} } } } });
    assert.equal(database.status, 200, JSON.stringify(database.body));
    assert.deepEqual(database.body.parent, { type: 'workspace', workspace: true });
    const empty = await v1('POST', '/v1/pages', { parent: {}, properties: {} });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.code, 'validation_error');
    assert.match(empty.body.message, /body\.parent/);
    const wrong = await v1('POST', '/v1/pages', { parent: { type: 'workspace', workspace: false }, properties: {} });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.message, /body\.parent/);
  });

  test('a search sorted by {property: "relevance"} (the SDK types it) lists as with no sort; a sort naming neither is refused', async () => {
    await makeSharedPage(server, fx, 'Relevant one');
    await makeSharedPage(server, fx, 'Relevant two');
    const plain = await v1('POST', '/v1/search', { query: 'Relevant' });
    const relevance = await v1('POST', '/v1/search', { query: 'Relevant', sort: { property: 'relevance' } });
    assert.equal(relevance.status, 200, JSON.stringify(relevance.body));
    assert.deepEqual(
      relevance.body.results.map((r: Json) => r.id),
      plain.body.results.map((r: Json) => r.id),
    );
    assert.equal(relevance.body.results.length, 2);
    const neither = await v1('POST', '/v1/search', { sort: { property: 'title' } });
    assert.equal(neither.status, 400);
    assert.match(neither.body.message, /body\.sort/);
  });

  test('a text link with members besides url (a markdown-to-blocks library sends {type: "url", url}) is taken and shown as {url}', async () => {
    const page = await makeSharedPage(server, fx);
    const res = await v1('PATCH', `/v1/blocks/${page.id}/children`, {
      children: [{ paragraph: { rich_text: [{ type: 'text', text: { content: 'site', link: { type: 'url', url: 'https://example.com' } } }] } }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.results[0].paragraph.rich_text[0].text.link, { url: 'https://example.com' });
  });
});

/**
 * The service's own MCP server (`@notionhq/notion-mcp-server`), started with `BASE_URL` at a
 * Folio test server, calls every one of its tools against a seeded workspace. The MCP server turns
 * an error response into a text result too, so each call is judged by the object it returns.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';

type Json = Record<string, any>;

const require = createRequire(import.meta.url);
const MCP_CLI = require.resolve('@notionhq/notion-mcp-server/bin/cli.mjs');

/** The tools the MCP server offers (2.5.2), each called below. */
const EXPECTED_TOOLS = [
  'API-get-user',
  'API-get-users',
  'API-get-self',
  'API-post-search',
  'API-get-block-children',
  'API-patch-block-children',
  'API-retrieve-a-block',
  'API-update-a-block',
  'API-delete-a-block',
  'API-retrieve-a-page',
  'API-patch-page',
  'API-post-page',
  'API-retrieve-a-page-property',
  'API-retrieve-a-comment',
  'API-create-a-comment',
  'API-query-data-source',
  'API-retrieve-a-data-source',
  'API-update-a-data-source',
  'API-create-a-data-source',
  'API-list-data-source-templates',
  'API-retrieve-a-database',
  'API-move-page',
  'API-retrieve-page-markdown',
  'API-update-page-markdown',
];

describe('the service MCP server against Folio', () => {
  const { server, fx } = useServer();
  let mcp: McpClient;
  const called = new Set<string>();

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_CLI],
      // As the MCP server's README configures it for a fixed version: its OpenAPI document gives
      // one operation (create-a-comment) no Notion-Version, which the service would refuse.
      env: {
        PATH: process.env.PATH ?? '',
        BASE_URL: server.url,
        OPENAPI_MCP_HEADERS: JSON.stringify({ Authorization: `Bearer ${fx.token}`, 'Notion-Version': '2025-09-03' }),
      },
      stderr: 'ignore',
    });
    mcp = new McpClient({ name: 'folio-test', version: '1.0.0' });
    await mcp.connect(transport);
  });
  after(() => mcp?.close());

  /** Calls a tool and returns the object it answered, failing on an error object. */
  async function tool(name: string, args: Json): Promise<Json> {
    called.add(name);
    const result = (await mcp.callTool({ name, arguments: args })) as { content: { type: string; text: string }[] };
    const text = result.content.find((c) => c.type === 'text')?.text ?? '';
    const body = JSON.parse(text) as Json;
    assert.notEqual(body.object, 'error', `${name}: ${text}`);
    return body;
  }

  const api = async (method: string, path: string, body?: unknown) => {
    const result = await call<Json>(server.url, method, path, { token: fx.token, body });
    assert.ok(result.status < 300, `${method} ${path}: ${JSON.stringify(result.body)}`);
    return result.body;
  };

  test('the server offers the 24 tools', async () => {
    const { tools } = await mcp.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...EXPECTED_TOOLS].sort());
  });

  test('every tool succeeds against a seeded workspace', async () => {
    const home = await makeSharedPage(server, fx, 'MCP home');
    const elsewhere = await makeSharedPage(server, fx, 'MCP elsewhere');

    const me = await tool('API-get-self', {});
    assert.equal(me.type, 'bot');
    const users = await tool('API-get-users', {});
    assert.ok(users.results.some((u: Json) => u.id === fx.user.id));
    assert.equal((await tool('API-get-user', { user_id: fx.user.id })).id, fx.user.id);

    const child = await tool('API-post-page', { parent: { page_id: home.id }, properties: { title: [{ text: { content: 'Draft' } }] } });
    await tool('API-patch-page', { page_id: child.id, properties: { title: [{ text: { content: 'Minutes' } }] } });
    assert.equal((await tool('API-retrieve-a-page', { page_id: child.id })).properties.title.title[0].plain_text, 'Minutes');
    const titleItem = await tool('API-retrieve-a-page-property', { page_id: child.id, property_id: 'title' });
    assert.equal(titleItem.object, 'list');

    const appended = await tool('API-patch-block-children', {
      block_id: home.id,
      children: [{ object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'Hello from MCP' } }] } }],
    });
    const block = appended.results[0];
    assert.ok((await tool('API-get-block-children', { block_id: home.id })).results.some((b: Json) => b.id === block.id));
    assert.equal((await tool('API-retrieve-a-block', { block_id: block.id })).type, 'paragraph');
    const edited = await tool('API-update-a-block', { block_id: block.id, paragraph: { rich_text: [{ type: 'text', text: { content: 'Edited' } }] } });
    assert.equal(edited.paragraph.rich_text[0].plain_text, 'Edited');
    assert.equal((await tool('API-delete-a-block', { block_id: block.id })).in_trash, true);

    const search = await tool('API-post-search', { query: 'MCP home' });
    assert.ok(search.results.some((r: Json) => r.id === home.id));

    const database = await api('POST', '/v1/databases', {
      parent: { type: 'page_id', page_id: home.id },
      title: [{ text: { content: 'Tasks' } }],
      initial_data_source: { properties: { Name: { title: {} }, Done: { checkbox: {} } } },
    });
    const dataSourceId = database.data_sources[0].id;
    assert.equal((await tool('API-retrieve-a-database', { database_id: database.id })).id, database.id);
    assert.equal((await tool('API-retrieve-a-data-source', { data_source_id: dataSourceId })).id, dataSourceId);
    await tool('API-update-a-data-source', { data_source_id: dataSourceId, title: [{ type: 'text', text: { content: 'Tasks 2' } }] });
    const second = await tool('API-create-a-data-source', {
      parent: { type: 'database_id', database_id: database.id },
      properties: { Name: { title: {} } },
      title: [{ type: 'text', text: { content: 'Archive' } }],
    });
    assert.equal(second.object, 'data_source');

    const row = await api('POST', '/v1/pages', {
      parent: { type: 'data_source_id', data_source_id: dataSourceId },
      properties: { Name: { title: [{ text: { content: 'Template row' } }] } },
    });
    const query = await tool('API-query-data-source', { data_source_id: dataSourceId });
    assert.deepEqual(
      query.results.map((p: Json) => p.id),
      [row.id],
    );
    await admin(server, 'POST', `/data_sources/${dataSourceId}/templates`, { page_id: row.id, is_default: true });
    const templates = await tool('API-list-data-source-templates', { data_source_id: dataSourceId });
    assert.deepEqual(templates.templates, [{ id: row.id, name: 'Template row', is_default: true }]);

    const comment = await tool('API-create-a-comment', { parent: { page_id: home.id }, rich_text: [{ text: { content: 'Looks good' } }] });
    assert.equal(comment.object, 'comment');
    const comments = await tool('API-retrieve-a-comment', { block_id: home.id });
    assert.deepEqual(
      comments.results.map((c: Json) => c.id),
      [comment.id],
    );

    const moved = await tool('API-move-page', { page_id: child.id, parent: { type: 'page_id', page_id: elsewhere.id } });
    assert.equal(moved.parent.page_id, elsewhere.id);

    await tool('API-update-page-markdown', { page_id: child.id, type: 'replace_content', replace_content: { new_str: '## Agenda\n- Budget\n- Hiring' } });
    const markdown = await tool('API-retrieve-page-markdown', { page_id: child.id });
    assert.equal(markdown.markdown, '## Agenda\n- Budget\n- Hiring');

    assert.deepEqual([...called].sort(), [...EXPECTED_TOOLS].sort());
  });
});

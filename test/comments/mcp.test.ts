/**
 * The comment tools of the service's own MCP server (`@notionhq/notion-mcp-server`), started with
 * `BASE_URL` at a Folio test server: what it sends to create and list comments (from its OpenAPI
 * description, not the SDK) is what Folio takes. test/mcp/mcpServer.test.ts runs every tool; this
 * runs the two comment tools on their own, with a reply and an error, until that test is whole.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useServer } from '../helpers/useServer.js';
import { admin, makeSharedPage } from '../helpers/factories.js';

type Json = Record<string, any>;

const MCP_CLI = createRequire(import.meta.url).resolve('@notionhq/notion-mcp-server/bin/cli.mjs');

describe('comments through the service MCP server', () => {
  const { server, fx } = useServer();
  let mcp: McpClient;

  before(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_CLI],
      // Its OpenAPI description gives create-a-comment no Notion-Version header (the other
      // operations carry one), so with NOTION_TOKEN alone that call has none, and the service, as
      // Folio, refuses it (missing_version). OPENAPI_MCP_HEADERS, as its README shows, sends one on every call.
      env: {
        PATH: process.env.PATH ?? '',
        BASE_URL: server.url,
        OPENAPI_MCP_HEADERS: JSON.stringify({ Authorization: `Bearer ${fx.token}`, 'Notion-Version': '2025-09-03' }),
      },
      stderr: 'ignore',
    });
    mcp = new McpClient({ name: 'folio-comments-test', version: '1.0.0' });
    await mcp.connect(transport);
  });
  after(() => mcp?.close());

  /** The object a tool answered (the MCP server answers errors as text results too). */
  async function tool(name: string, args: Json): Promise<Json> {
    const result = (await mcp.callTool({ name, arguments: args })) as { content: { type: string; text: string }[] };
    return JSON.parse(result.content.find((c) => c.type === 'text')?.text ?? 'null') as Json;
  }

  test('create a comment and a reply, list them; an unshared page is not found', async () => {
    const page = await makeSharedPage(server, fx, 'MCP comments');
    const first = await tool('API-create-a-comment', { parent: { page_id: page.id }, rich_text: [{ text: { content: 'Looks good' } }] });
    assert.equal(first.object, 'comment', JSON.stringify(first));
    assert.equal(first.rich_text[0].plain_text, 'Looks good');
    const reply = await tool('API-create-a-comment', { discussion_id: first.discussion_id, rich_text: [{ text: { content: 'Agreed' } }] });
    assert.equal(reply.discussion_id, first.discussion_id, JSON.stringify(reply));
    const listed = await tool('API-retrieve-a-comment', { block_id: page.id });
    assert.deepEqual(
      listed.results.map((c: Json) => c.id),
      [first.id, reply.id],
    );
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Hidden' });
    const refused = await tool('API-create-a-comment', { parent: { page_id: hidden.id }, rich_text: [{ text: { content: 'x' } }] });
    assert.equal(refused.status, 404, JSON.stringify(refused));
    assert.equal(refused.code, 'object_not_found');
  });
});

/**
 * The `folio admin` subcommands of issue 25 items 5 and 6, run as an operator runs them (a child
 * process on the running server's store): an emoji from an image file, a template marked as the
 * default, both undone; what they did is what the API then shows.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@notionhq/client';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { folioCli } from '../helpers/folioCli.js';

type Json = Record<string, any>;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

describe('folio admin: custom emojis and templates', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const { json } = folioCli(() => server);

  test('create-custom-emoji reads the image file; mark-template --default; both undone', async () => {
    const fx = await makeWorkspace(server);
    const notion = new Client({ auth: fx.token, baseUrl: server.url, logger: () => {} });
    const file = path.join(server.dataDir, 'wave.png');
    fs.writeFileSync(file, Buffer.from(PNG, 'base64'));
    const emoji = await json('admin', 'create-custom-emoji', '--workspace', fx.workspaceId, '--name', 'wave', '--content-type', 'image/png', '--file', file);
    assert.equal(emoji.name, 'wave');
    assert.deepEqual(
      (await notion.customEmojis.list({})).results.map((e) => e.id),
      [emoji.id],
    );

    const root = await makeSharedPage(server, fx, 'CLI templates');
    const database = (await notion.databases.create({
      parent: { page_id: root.id },
      initial_data_source: { properties: { Name: { title: {} } } },
    } as any)) as Json;
    const source = database.data_sources[0].id;
    const page = await notion.pages.create({ parent: { data_source_id: source }, properties: { Name: { title: [{ text: { content: 'Weekly' } }] } } });
    const marked = await json('admin', 'mark-template', '--data-source', source, '--page', page.id, '--default');
    assert.deepEqual(marked, { id: page.id, name: 'Weekly', is_default: true });
    assert.deepEqual((await notion.dataSources.listTemplates({ data_source_id: source })).templates, [marked]);

    await json('admin', 'unmark-template', '--data-source', source, '--page', page.id);
    assert.deepEqual((await notion.dataSources.listTemplates({ data_source_id: source })).templates, []);
    await json('admin', 'delete-custom-emoji', '--custom-emoji', emoji.id);
    assert.deepEqual((await notion.customEmojis.list({})).results, []);
  });
});

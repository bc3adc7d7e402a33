/**
 * The page-markdown endpoints through the official SDK and raw HTTP: read, the four edit modes and
 * their errors, `markdown` on page creation, capabilities, and unshared ≡ missing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { pollTask } from '../asyncTasks/helpers.js';

type Json = Record<string, any>;
const quiet = () => {};
const rt = (content: string) => [{ type: 'text', text: { content } }];

async function refusal(promise: Promise<unknown>): Promise<APIResponseError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(APIResponseError.isAPIResponseError(error), String(error));
    return error;
  }
  assert.fail('the call should have been refused');
}

describe('page markdown endpoints', () => {
  const { server, fx } = useServer();
  const client = (token = fx.token) => new Client({ auth: token, baseUrl: server.url, logger: quiet });
  const children = async (id: string) => (await client().blocks.children.list({ block_id: id })).results as Json[];

  test('GET renders the content; the SDK (2025-09-03) and the newest version both get it', async () => {
    const page = await makeSharedPage(server, fx);
    await client().blocks.children.append({
      block_id: page.id,
      children: [
        { heading_1: { rich_text: rt('Plan') as any } },
        {
          paragraph: {
            rich_text: [
              { type: 'text', text: { content: 'bold' }, annotations: { bold: true } },
              { type: 'text', text: { content: ' and plain' } },
            ] as any,
          },
        },
        { to_do: { rich_text: rt('task') as any, checked: true } },
        { toggle: { rich_text: rt('more') as any, children: [{ paragraph: { rich_text: rt('inside') as any } }] } },
        { bookmark: { url: 'https://example.com' } },
      ],
    });
    const listed = await children(page.id);
    const md = await client().pages.retrieveMarkdown({ page_id: page.id });
    assert.equal(md.object, 'page_markdown');
    assert.equal(md.id, page.id);
    assert.equal(
      md.markdown,
      `# Plan\n**bold** and plain\n- [x] task\n<details>\n<summary>more</summary>\n\tinside\n</details>\n<unknown url="${server.url}/${listed[4].id.replace(/-/g, '')}" alt="bookmark"/>`,
    );
    assert.deepEqual([md.truncated, md.unknown_block_ids], [false, []]);
    const raw = await call<Json>(server.url, 'GET', `/v1/pages/${page.id}/markdown?include_transcript=true`, { token: fx.token });
    assert.equal(raw.status, 200);
    assert.equal(raw.body.markdown, md.markdown);
    // A block id gives that block's subtree.
    const toggle = await client().pages.retrieveMarkdown({ page_id: listed[3].id });
    assert.equal(toggle.markdown, '<details>\n<summary>more</summary>\n\tinside\n</details>');
  });

  test('unshared, missing and a database are not found; a connection without read_content is refused', async () => {
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
    const missing = '4f1c3f5e-6a43-4b8e-9b1c-1f2e3d4c5b6a';
    for (const id of [hidden.id, missing]) {
      const get = await call<Json>(server.url, 'GET', `/v1/pages/${id}/markdown`, { token: fx.token });
      const patch = await call<Json>(server.url, 'PATCH', `/v1/pages/${id}/markdown`, {
        token: fx.token,
        body: { type: 'replace_content', replace_content: { new_str: 'x' } },
      });
      assert.equal(get.status, 404);
      assert.equal(get.body.code, 'object_not_found');
      assert.equal(patch.status, 404);
      assert.equal(get.body.message.replace(hidden.id, missing), get.body.message.replace(id, missing));
    }
    const page = await makeSharedPage(server, fx);
    const writer = await addConnection(server, fx.workspaceId, ['update_content']);
    const reader = await addConnection(server, fx.workspaceId, ['read_content']);
    for (const c of [writer, reader]) await admin(server, 'POST', `/connections/${c.id}/grants`, { object_id: page.id });
    assert.equal((await refusal(client(writer.token).pages.retrieveMarkdown({ page_id: page.id }))).code, APIErrorCode.RestrictedResource);
    assert.equal(
      (await refusal(client(reader.token).pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: 'x' } }))).code,
      APIErrorCode.RestrictedResource,
    );
  });

  test('replace_content writes blocks; update_content keeps the blocks before the change', async () => {
    const page = await makeSharedPage(server, fx);
    const written = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'replace_content',
      replace_content: { new_str: '# Title\nFirst line\n- one\n- two\nLast line' },
    });
    assert.equal(written.markdown, '# Title\nFirst line\n- one\n- two\nLast line');
    const before = await children(page.id);
    assert.deepEqual(
      before.map((b) => b.type),
      ['heading_1', 'paragraph', 'bulleted_list_item', 'bulleted_list_item', 'paragraph'],
    );
    const updated = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'update_content',
      update_content: { content_updates: [{ old_str: '- two', new_str: '- two\n\t- nested' }] },
    });
    assert.equal(updated.markdown, '# Title\nFirst line\n- one\n- two\n\t- nested\nLast line');
    const after = await children(page.id);
    assert.deepEqual(
      after.slice(0, 3).map((b) => b.id),
      before.slice(0, 3).map((b) => b.id),
      'blocks before the change keep their ids',
    );
    assert.equal(after[4].id, before[4].id, 'blocks after the change keep their ids');
    assert.notEqual(after[3].id, before[3].id);
    assert.equal((await children(after[3].id))[0].bulleted_list_item.rich_text[0].plain_text, 'nested');
  });

  test('update_content errors name content_updates[i].old_str; replace_all_matches replaces every one', async () => {
    const page = await makeSharedPage(server, fx);
    await client().pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: 'cat\ncat\ndog' } });
    const notFound = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: {
        type: 'update_content',
        update_content: {
          content_updates: [
            { old_str: 'dog', new_str: 'wolf' },
            { old_str: 'Dog', new_str: 'x' },
          ],
        },
      },
    });
    assert.equal(notFound.status, 400);
    assert.equal(notFound.body.code, 'validation_error');
    assert.match(notFound.body.message, /body\.update_content\.content_updates\[1\]\.old_str should match text of the page/);
    const twice = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'update_content', update_content: { content_updates: [{ old_str: 'cat', new_str: 'lion' }] } },
    });
    assert.equal(twice.status, 400);
    assert.match(twice.body.message, /content_updates\[0\]\.old_str should match exactly one place in the page \(it matches 2/);
    // Nothing was written by the refused edits.
    assert.equal((await client().pages.retrieveMarkdown({ page_id: page.id })).markdown, 'cat\ncat\ndog');
    const all = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'update_content',
      update_content: { content_updates: [{ old_str: 'cat', new_str: 'lion', replace_all_matches: true }] },
    });
    assert.equal(all.markdown, 'lion\nlion\ndog');
    const tooMany = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'update_content', update_content: { content_updates: Array.from({ length: 101 }, () => ({ old_str: 'a', new_str: 'b' })) } },
    });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.message, /content_updates/);
  });

  test('insert_content: at the end, at the start, after a selection; after and position together are refused', async () => {
    const page = await makeSharedPage(server, fx);
    await client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'middle' } });
    await client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'first', position: { type: 'start' } } });
    await client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'last', position: { type: 'end' } } });
    const after = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'insert_content',
      insert_content: { content: '## between', after: 'fi...st' },
    });
    assert.equal(after.markdown, 'first\n## between\nmiddle\nlast');
    const both = await refusal(
      client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'x', after: 'first', position: { type: 'end' } } }),
    );
    assert.equal(both.code, APIErrorCode.ValidationError);
    assert.match(both.message, /Use only one insertion target/);
    const missing = await refusal(
      client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'x', after: 'FIRST' } }),
    );
    assert.match(missing.message, /body\.insert_content\.after should match text of the page/);
  });

  test('allow_async: 202 with a task whose result is the page markdown after the edit', async () => {
    const page = await makeSharedPage(server, fx);
    const accepted = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'replace_content', replace_content: { new_str: '# Later\ntext' }, allow_async: true },
    });
    assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
    assert.deepEqual(accepted.body.operation, { surface: 'rest', name: 'PATCH /v1/pages/:page_id/markdown' });
    const done = await pollTask(server.url, fx.token, accepted.body.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.deepEqual(done.result, { object: 'page_markdown', id: page.id, markdown: '# Later\ntext', truncated: false, unknown_block_ids: [] });
    assert.equal((await client().pages.retrieveMarkdown({ page_id: page.id })).markdown, '# Later\ntext');
  });

  test('replace_content_range replaces the ellipsis selection', async () => {
    const page = await makeSharedPage(server, fx);
    await client().pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: 'one\ntwo\nthree\nfour' } });
    const done = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'replace_content_range',
      replace_content_range: { content: '> quoted', content_range: 'two...three' },
    });
    assert.equal(done.markdown, 'one\n> quoted\nfour');
    const missing = await refusal(
      client().pages.updateMarkdown({ page_id: page.id, type: 'replace_content_range', replace_content_range: { content: 'x', content_range: 'nine...ten' } }),
    );
    assert.match(missing.message, /content_range should match text of the page/);
  });

  test('deleting a child page needs allow_deleting_content; kept by url it stays', async () => {
    const page = await makeSharedPage(server, fx);
    const child = await client().pages.create({ parent: { page_id: page.id }, properties: { title: { title: rt('Child') as any } } });
    await client().pages.updateMarkdown({ page_id: page.id, type: 'insert_content', insert_content: { content: 'after the child' } });
    const md = (await client().pages.retrieveMarkdown({ page_id: page.id })).markdown;
    const pageTag = `<page url="${server.url}/${child.id.replace(/-/g, '')}">Child</page>`;
    assert.equal(md, `${pageTag}\nafter the child`);
    const moved = await client().pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: `intro\n${pageTag}` } });
    assert.equal(moved.markdown, `intro\n${pageTag}`);
    assert.equal((await children(page.id))[1].id, child.id, 'the child page is kept, moved after the new block');
    const refused = await refusal(client().pages.updateMarkdown({ page_id: page.id, type: 'replace_content', replace_content: { new_str: 'nothing else' } }));
    assert.equal(refused.code, APIErrorCode.ValidationError);
    assert.match(refused.message, new RegExp(`page "Child" \\(${child.id}\\).*allow_deleting_content`));
    const deleted = await client().pages.updateMarkdown({
      page_id: page.id,
      type: 'replace_content',
      replace_content: { new_str: 'nothing else', allow_deleting_content: true },
    });
    assert.equal(deleted.markdown, 'nothing else');
    assert.equal(((await client().pages.retrieve({ page_id: child.id })) as Json).in_trash, true);
  });

  test('markdown that cannot be read is a 400 naming the field, never a 500', async () => {
    const page = await makeSharedPage(server, fx);
    for (const bad of ['<details>\n<summary>x</summary>\n\tnever closed', '<widget/>', '```nolanguage\nx\n```', '<span color="nope">x</span>']) {
      const result = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
        token: fx.token,
        body: { type: 'replace_content', replace_content: { new_str: bad } },
      });
      assert.equal(result.status, 400, bad);
      assert.equal(result.body.code, 'validation_error');
      assert.match(result.body.message, /body failed validation: body\.replace_content\.new_str should be enhanced markdown/);
      const created = await call<Json>(server.url, 'POST', '/v1/pages', { token: fx.token, body: { parent: { page_id: page.id }, markdown: bad } });
      assert.equal(created.status, 400, bad);
      assert.match(created.body.message, /body failed validation: body\.markdown should be enhanced markdown/);
    }
    // Markdown-made blocks take the request schema's checks too: an equation is at most 1,000 characters.
    const long = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'replace_content', replace_content: { new_str: `intro\n$$\n${'x'.repeat(1001)}\n$$` } },
    });
    assert.equal(long.status, 400);
    assert.match(long.body.message, /body\.replace_content\.new_str\[1\]\.equation\.expression\.length should be ≤ `1000`/);
    const wrongMember = await call<Json>(server.url, 'PATCH', `/v1/pages/${page.id}/markdown`, {
      token: fx.token,
      body: { type: 'replace_content', update_content: { content_updates: [] } },
    });
    assert.equal(wrongMember.status, 400);
    const block = (await client().blocks.children.append({ block_id: page.id, children: [{ paragraph: { rich_text: rt('p') as any } }] })).results[0];
    const onBlock = await call<Json>(server.url, 'PATCH', `/v1/pages/${block.id}/markdown`, {
      token: fx.token,
      body: { type: 'replace_content', replace_content: { new_str: 'x' } },
    });
    assert.equal(onBlock.status, 400);
    assert.equal(onBlock.body.code, 'validation_error');
  });

  test('POST /v1/pages with markdown: the first # heading is the title; children with markdown are refused', async () => {
    const parent = await makeSharedPage(server, fx);
    const created = (await client().pages.create({ parent: { page_id: parent.id }, markdown: '# From markdown\nHello *world*\n- [ ] item' })) as Json;
    assert.equal(created.properties.title.title[0].plain_text, 'From markdown');
    assert.equal((await client().pages.retrieveMarkdown({ page_id: created.id })).markdown, 'Hello *world*\n- [ ] item');
    const titled = (await client().pages.create({
      parent: { page_id: parent.id },
      properties: { title: { title: rt('Given') as any } },
      markdown: '# Kept as a heading',
    })) as Json;
    assert.equal(titled.properties.title.title[0].plain_text, 'Given');
    assert.equal((await client().pages.retrieveMarkdown({ page_id: titled.id })).markdown, '# Kept as a heading');
    const both = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: parent.id }, markdown: 'x', children: [{ paragraph: { rich_text: rt('y') } }] },
    });
    assert.equal(both.status, 400);
    assert.match(both.body.message, /body\.children should be not present when markdown is given/);
    // Markdown-made blocks take the JSON children's checks: a synced copy must name an original.
    const copy = await call<Json>(server.url, 'POST', '/v1/pages', {
      token: fx.token,
      body: { parent: { page_id: parent.id }, markdown: '<synced_block_reference url="4f1c3f5e-6a43-4b8e-9b1c-1f2e3d4c5b6a">\n</synced_block_reference>' },
    });
    assert.equal(copy.status, 400);
    assert.match(copy.body.message, /synced_from\.block_id should be the ID of an original synced block/);
  });
});

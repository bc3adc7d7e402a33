/**
 * The block endpoints over raw HTTP at the newest version (FACTS.md §2 "Blocks", §7 trash, §9
 * shapes): every type round-trips, nesting and size limits, positions, update semantics, trash,
 * has_children, capabilities and sharing.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { addConnection, admin, makeSharedPage, makeWorkspace } from '../helpers/factories.js';
import { append, appendOk, assertValidationError, everyBlockType, listAll, rt, TYPES_WITH_CHILDREN } from './fixtures.js';

type Json = Record<string, any>;

const paragraph = (content: string, children?: Json[]) => ({ paragraph: { rich_text: rt(content), ...(children ? { children } : {}) } });
const texts = (blocks: Json[]) => blocks.map((b) => b[b.type].rich_text?.map((t: Json) => t.plain_text).join('') ?? b.type);

describe('blocks API', () => {
  const { server, fx } = useServer();

  const get = (path: string, token = fx.token) => call<Json>(server.url, 'GET', path, { token });
  const patch = (path: string, body: unknown, token = fx.token) => call<Json>(server.url, 'PATCH', path, { token, body });
  const del = (path: string, token = fx.token) => call<Json>(server.url, 'DELETE', path, { token });

  test('every block type round-trips through append, retrieve and list', async () => {
    const page = await makeSharedPage(server, fx);
    const cases = everyBlockType();
    const res = await append(
      server,
      fx.token,
      page.id,
      cases.map((c) => c.request),
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['object', 'results', 'next_cursor', 'has_more', 'type', 'block']);
    assert.deepEqual([res.body.object, res.body.type, res.body.block, res.body.next_cursor, res.body.has_more], ['list', 'block', {}, null, false]);
    const results: Json[] = res.body.results;
    assert.deepEqual(
      results.map((b) => b.type),
      cases.map((c) => c.type),
    );
    for (const [i, block] of results.entries()) {
      assert.deepEqual(Object.keys(block), [
        'object',
        'id',
        'parent',
        'created_time',
        'last_edited_time',
        'created_by',
        'last_edited_by',
        'has_children',
        'in_trash',
        'type',
        block.type,
      ]);
      assert.deepEqual(block.parent, { type: 'page_id', page_id: page.id });
      assert.deepEqual(block.created_by, { object: 'user', id: fx.connection.bot_id });
      assert.match(block.created_time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);
      assert.equal(block.in_trash, false);
      assert.equal(block.has_children, TYPES_WITH_CHILDREN.has(block.type), block.type);
      cases[i].expect(block[block.type]);
      const one = await get(`/v1/blocks/${block.id}`);
      assert.equal(one.status, 200);
      assert.deepEqual(one.body, block);
    }
    assert.deepEqual(await listAll(server, fx.token, page.id), results);

    const table = results.find((b) => b.type === 'table')!;
    const rows = await listAll(server, fx.token, table.id);
    assert.deepEqual(
      rows.map((r) => r.table_row.cells.map((cell: Json[]) => cell.map((t) => t.plain_text).join(''))),
      [
        ['a', 'b'],
        ['', 'd'],
      ],
    );
    assert.deepEqual(rows[0].parent, { type: 'block_id', block_id: table.id });
    const columns = await listAll(server, fx.token, results.find((b) => b.type === 'column_list')!.id);
    assert.deepEqual(
      columns.map((c) => [c.type, c.column, c.has_children]),
      [
        ['column', {}, true],
        ['column', { width_ratio: 0.5 }, true],
      ],
    );
  });

  test('a text link with members besides url (the `{type: "url", url}` some libraries send) is taken, and shown as {url}', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [
      { paragraph: { rich_text: [{ type: 'text', text: { content: 'Folio', link: { type: 'url', url: 'https://example.com/' } } }] } },
    ]);
    assert.deepEqual(block.paragraph.rich_text[0].text.link, { url: 'https://example.com/' });
    assert.equal(block.paragraph.rich_text[0].href, 'https://example.com/');
    const bad = await append(server, fx.token, page.id, [{ paragraph: { rich_text: [{ text: { content: 'x', link: { type: 'url' } } }] } }]);
    assert.equal(bad.status, 400, 'url is still required');
  });

  test('two nesting levels are accepted; a third is refused, naming its path', async () => {
    const page = await makeSharedPage(server, fx);
    const [top] = await appendOk(server, fx.token, page.id, [paragraph('1', [paragraph('2', [paragraph('3')])])]);
    assert.equal(top.has_children, true);
    const [second] = await listAll(server, fx.token, top.id);
    assert.deepEqual(second.parent, { type: 'block_id', block_id: top.id });
    const [third] = await listAll(server, fx.token, second.id);
    assert.equal(third.paragraph.rich_text[0].plain_text, '3');
    assert.equal(third.has_children, false);

    const deep = await append(server, fx.token, page.id, [paragraph('1', [paragraph('2', [paragraph('3', [paragraph('4')])])])]);
    assertValidationError(
      deep,
      /^body failed validation: body\.children\[0\]\.paragraph\.children\[0\]\.paragraph\.children\[0\]\.paragraph\.children should be not present/,
    );
    // The refused request wrote nothing.
    assert.equal((await listAll(server, fx.token, page.id)).length, 1);
  });

  test('at most 100 children per array and 1000 blocks per request', async () => {
    const page = await makeSharedPage(server, fx);
    const many = (n: number) => Array.from({ length: n }, (_, i) => paragraph(`p${i}`));
    assertValidationError(
      await append(server, fx.token, page.id, many(101)),
      /^body failed validation: body\.children\.length should be ≤ `100`, instead was `101`\.$/,
    );
    const nested = await append(
      server,
      fx.token,
      page.id,
      Array.from({ length: 11 }, () => paragraph('x', many(90))),
    );
    assertValidationError(nested, /body\.children should hold at most 1000 blocks in all, instead was `1001`/);
    assert.equal((await appendOk(server, fx.token, page.id, many(100))).length, 100);
  });

  test('children of the wrong kind are refused', async () => {
    const page = await makeSharedPage(server, fx);
    assertValidationError(
      await append(server, fx.token, page.id, [{ table_row: { cells: [] } }]),
      /body\.children\[0\]\.type should be a block type that a page can hold/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ table: { table_width: 2, children: [{ table_row: { cells: [rt('only one')] } }] } }]),
      /body\.children\[0\]\.table\.children\[0\]\.table_row\.cells\.length should be `2` \(the table width\), instead was `1`/,
    );
    assertValidationError(await append(server, fx.token, page.id, [{}]), /body\.children\[0\] should have a block type member/);
    assertValidationError(
      await append(server, fx.token, page.id, [{ paragraph: { rich_text: [] }, quote: { rich_text: [] } }]),
      /body\.children\[0\]\.quote should be not present/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ type: 'quote', paragraph: { rich_text: [] } }]),
      /body\.children\[0\]\.type should be "paragraph"/,
    );
    // Issue 11: an unknown member of a block is named as an unknown block type.
    assertValidationError(
      await append(server, fx.token, page.id, [{ foo: {} }]),
      /body\.children\[0\]\.foo is not a known block type: a block's type should be "paragraph", .*, instead was `"foo"`/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ paragraph: { rich_text: [{ text: { content: 'x'.repeat(2001) } }] } }]),
      /body\.children\[0\]\.paragraph\.rich_text\[0\]\.text\.content\.length should be ≤ `2000`, instead was `2001`/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ code: { rich_text: [], language: 'klingon' } }]),
      /body\.children\[0\]\.code\.language should be "abap"/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ image: { type: 'file_upload', file_upload: { id: '2f2e7f3e9b4c4d5e8f6a7b8c9d0e1f2a' } } }]),
      /body\.children\[0\]\.image\.file_upload\.id should be the ID of a file upload created by this integration/,
    );
    const [divider] = await appendOk(server, fx.token, page.id, [{ divider: {} }]);
    assertValidationError(await append(server, fx.token, divider.id, [paragraph('x')]), /type should be a block type that a divider can hold/);
    const [table] = await appendOk(server, fx.token, page.id, [{ table: { table_width: 1, children: [{ table_row: { cells: [rt('r1')] } }] } }]);
    assertValidationError(await append(server, fx.token, table.id, [paragraph('x')]), /that a table can hold/);
    assertValidationError(await append(server, fx.token, table.id, [{ table_row: { cells: [[], []] } }]), /cells\.length should be `1`/);
    assert.equal((await appendOk(server, fx.token, table.id, [{ table_row: { cells: [rt('r2')] } }])).length, 1);
    assert.equal((await listAll(server, fx.token, table.id)).length, 2);
  });

  test('position: end by default, start, and after a given block', async () => {
    const page = await makeSharedPage(server, fx);
    const [, b] = await appendOk(server, fx.token, page.id, [paragraph('a'), paragraph('b'), paragraph('c')]);
    await appendOk(server, fx.token, page.id, [paragraph('end')], { position: { type: 'end' } });
    await appendOk(server, fx.token, page.id, [paragraph('s1'), paragraph('s2')], { position: { type: 'start' } });
    const inserted = await appendOk(server, fx.token, page.id, [paragraph('after-b-1'), paragraph('after-b-2')], {
      position: { type: 'after_block', after_block: { id: b.id.replace(/-/g, '') } },
    });
    assert.deepEqual(texts(inserted), ['after-b-1', 'after-b-2']);
    await appendOk(server, fx.token, page.id, [paragraph('last')]);
    assert.deepEqual(texts(await listAll(server, fx.token, page.id)), ['s1', 's2', 'a', 'b', 'after-b-1', 'after-b-2', 'c', 'end', 'last']);
    assert.deepEqual(texts(await listAll(server, fx.token, page.id, 2)), ['s1', 's2', 'a', 'b', 'after-b-1', 'after-b-2', 'c', 'end', 'last']);

    const other = await makeSharedPage(server, fx, 'Other');
    const [foreign] = await appendOk(server, fx.token, other.id, [paragraph('elsewhere')]);
    assertValidationError(
      await append(server, fx.token, page.id, [paragraph('x')], { position: { type: 'after_block', after_block: { id: foreign.id } } }),
      /^body failed validation: body\.position\.after_block\.id should be the ID of a child of the parent block/,
    );
    assertValidationError(await append(server, fx.token, page.id, [paragraph('x')], { position: { type: 'middle' } }), /body\.position/);
    assertValidationError(await append(server, fx.token, page.id, [paragraph('x')], { after: b.id }), /body\.after should be not present/);
  });

  test('update: a given field replaces the stored one, omitted fields are kept', async () => {
    const page = await makeSharedPage(server, fx);
    const [todo, code, image, heading] = await appendOk(server, fx.token, page.id, [
      { to_do: { rich_text: rt('buy milk'), color: 'blue' } },
      { code: { rich_text: rt('x'), language: 'python', caption: rt('cap') } },
      { image: { external: { url: 'https://example.com/a.png' } } },
      { heading_2: { rich_text: rt('Title') } },
    ]);
    let res = await patch(`/v1/blocks/${todo.id}`, { to_do: { checked: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.to_do, { ...todo.to_do, checked: true });
    res = await patch(`/v1/blocks/${todo.id}`, { type: 'to_do', to_do: { rich_text: rt('buy oat milk') } });
    assert.equal(res.body.to_do.rich_text[0].plain_text, 'buy oat milk');
    assert.equal(res.body.to_do.checked, true);
    assert.equal(res.body.to_do.color, 'blue');
    assert.deepEqual((await get(`/v1/blocks/${todo.id}`)).body, res.body);

    res = await patch(`/v1/blocks/${code.id}`, { code: { language: 'rust' } });
    assert.deepEqual([res.body.code.language, res.body.code.rich_text[0].plain_text, res.body.code.caption[0].plain_text], ['rust', 'x', 'cap']);
    res = await patch(`/v1/blocks/${image.id}`, { image: { caption: rt('a cat') } });
    assert.deepEqual(res.body.image.external, { url: 'https://example.com/a.png' });
    res = await patch(`/v1/blocks/${image.id}`, { image: { external: { url: 'https://example.com/b.png' } } });
    assert.deepEqual([res.body.image.external.url, res.body.image.caption[0].plain_text], ['https://example.com/b.png', 'a cat']);
    res = await patch(`/v1/blocks/${heading.id}`, { heading_2: { is_toggleable: true, color: 'green' } });
    assert.deepEqual([res.body.heading_2.is_toggleable, res.body.heading_2.color, res.body.heading_2.rich_text[0].plain_text], [true, 'green', 'Title']);
    res = await patch(`/v1/blocks/${heading.id}`, {});
    assert.equal(res.status, 200);
    assert.equal(res.body.heading_2.color, 'green');

    assertValidationError(
      await patch(`/v1/blocks/${todo.id}`, { paragraph: { rich_text: [] } }),
      /^body failed validation: body\.paragraph should be not present \(the block is of type `to_do`\)/,
    );
    assertValidationError(await patch(`/v1/blocks/${todo.id}`, { type: 'paragraph' }), /body\.type should be "to_do"/);
    assertValidationError(await patch(`/v1/blocks/${todo.id}`, { to_do: { checked: 'yes' } }), /body\.to_do\.checked should be a boolean, instead was `"yes"`/);
    assertValidationError(await patch(`/v1/blocks/${todo.id}`, { to_do: { children: [] } }), /body\.to_do\.children should be not present/);
    assertValidationError(await patch(`/v1/blocks/${todo.id}`, { archived: true }), /^body failed validation: body\.archived should be not present/);
    assertValidationError(
      await patch(`/v1/blocks/${image.id}`, { image: { file_upload: { id: '2f2e7f3e9b4c4d5e8f6a7b8c9d0e1f2a' } } }),
      /body\.image\.file_upload\.id should be the ID of a file upload created by this integration/,
    );
    // Pages seen as blocks take only in_trash here.
    assertValidationError(await patch(`/v1/blocks/${page.id}`, { paragraph: { rich_text: [] } }), /body\.paragraph should be not present/);
  });

  test('delete moves to the trash; edits are refused until restored; restore puts it back in place', async () => {
    const page = await makeSharedPage(server, fx);
    const [first, toggle, last] = await appendOk(server, fx.token, page.id, [
      paragraph('first'),
      { toggle: { rich_text: rt('t'), children: [paragraph('inside')] } },
      paragraph('last'),
    ]);
    const [inside] = await listAll(server, fx.token, toggle.id);

    const deleted = await del(`/v1/blocks/${toggle.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.in_trash, true);
    assert.equal(deleted.body.id, toggle.id);
    assert.deepEqual(
      (await listAll(server, fx.token, page.id)).map((b) => b.id),
      [first.id, last.id],
    );
    assert.equal((await get(`/v1/blocks/${toggle.id}`)).body.in_trash, true);
    // Its content went with it.
    assert.equal((await get(`/v1/blocks/${inside.id}`)).body.in_trash, true);

    const message = /^Can't edit block that is archived\. You must unarchive the block before editing\.$/;
    assertValidationError(await patch(`/v1/blocks/${toggle.id}`, { toggle: { rich_text: rt('edited') } }), message);
    assertValidationError(await patch(`/v1/blocks/${toggle.id}`, { in_trash: true }), message);
    assertValidationError(await del(`/v1/blocks/${toggle.id}`), message);
    assertValidationError(await append(server, fx.token, toggle.id, [paragraph('more')]), message);
    assertValidationError(await patch(`/v1/blocks/${inside.id}`, { paragraph: { rich_text: [] } }), message);

    const restored = await patch(`/v1/blocks/${toggle.id}`, { in_trash: false });
    assert.equal(restored.status, 200);
    assert.equal(restored.body.in_trash, false);
    assert.equal(restored.body.has_children, true);
    assert.deepEqual(
      (await listAll(server, fx.token, page.id)).map((b) => b.id),
      [first.id, toggle.id, last.id],
    );
    assert.equal((await get(`/v1/blocks/${inside.id}`)).body.in_trash, false);

    // Restore and edit in one request; trash and edit in one request.
    await del(`/v1/blocks/${first.id}`);
    const both = await patch(`/v1/blocks/${first.id}`, { in_trash: false, paragraph: { rich_text: rt('first, edited') } });
    assert.deepEqual([both.body.in_trash, both.body.paragraph.rich_text[0].plain_text], [false, 'first, edited']);
    const away = await patch(`/v1/blocks/${first.id}`, { in_trash: true, paragraph: { color: 'red' } });
    assert.deepEqual([away.body.in_trash, away.body.paragraph.color], [true, 'red']);
  });

  test('the content of a locked page cannot be edited', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [{ toggle: { rich_text: rt('t'), children: [paragraph('inner')] } }]);
    const [inner] = await listAll(server, fx.token, block.id);
    const locked = await patch(`/v1/pages/${page.id}`, { is_locked: true });
    assert.equal(locked.status, 200, JSON.stringify(locked.body));
    const message = /^Can't edit page that is locked\. You must unlock the page before editing\.$/;
    assertValidationError(await append(server, fx.token, page.id, [paragraph('x')]), message);
    assertValidationError(await append(server, fx.token, block.id, [paragraph('x')]), message);
    assertValidationError(await patch(`/v1/blocks/${inner.id}`, { paragraph: { color: 'red' } }), message);
    assertValidationError(await del(`/v1/blocks/${inner.id}`), message);
    assert.equal((await get(`/v1/blocks/${inner.id}`)).status, 200);
    await patch(`/v1/pages/${page.id}`, { is_locked: false });
    assert.equal((await patch(`/v1/blocks/${inner.id}`, { paragraph: { color: 'red' } })).status, 200);
  });

  test('has_children follows appends and the trash', async () => {
    const page = await makeSharedPage(server, fx);
    const [toggle] = await appendOk(server, fx.token, page.id, [{ toggle: { rich_text: rt('t') } }]);
    assert.equal(toggle.has_children, false);
    const [child] = await appendOk(server, fx.token, toggle.id, [paragraph('c')]);
    assert.equal((await get(`/v1/blocks/${toggle.id}`)).body.has_children, true);
    const listed = await listAll(server, fx.token, page.id);
    assert.equal(listed[0].has_children, true);
    await del(`/v1/blocks/${child.id}`);
    assert.equal((await get(`/v1/blocks/${toggle.id}`)).body.has_children, false);
    assert.deepEqual(await listAll(server, fx.token, toggle.id), []);
    await patch(`/v1/blocks/${child.id}`, { in_trash: false });
    assert.equal((await get(`/v1/blocks/${toggle.id}`)).body.has_children, true);
    const pageBlock = await get(`/v1/blocks/${page.id}`);
    assert.deepEqual([pageBlock.body.type, pageBlock.body.has_children, pageBlock.body.child_page], ['child_page', true, { title: 'Shared page' }]);
  });

  test('appending edits the parent: last_edited_by becomes the integration', async () => {
    const page = await makeSharedPage(server, fx);
    const before = await get(`/v1/blocks/${page.id}`);
    assert.notEqual(before.body.last_edited_by.id, fx.connection.bot_id);
    const [toggle] = await appendOk(server, fx.token, page.id, [{ toggle: { rich_text: rt('t') } }]);
    assert.equal((await get(`/v1/blocks/${page.id}`)).body.last_edited_by.id, fx.connection.bot_id);
    await appendOk(server, fx.token, toggle.id, [paragraph('c')]);
    const after = await get(`/v1/blocks/${toggle.id}`);
    assert.equal(after.body.last_edited_by.id, fx.connection.bot_id);
    assert.ok(after.body.last_edited_time >= toggle.last_edited_time);
  });

  test('synced blocks: a copy shows its original’s children and has none of its own', async () => {
    const page = await makeSharedPage(server, fx);
    const [original] = await appendOk(server, fx.token, page.id, [{ synced_block: { synced_from: null, children: [paragraph('shared text')] } }]);
    const [copy] = await appendOk(server, fx.token, page.id, [{ synced_block: { synced_from: { block_id: original.id } } }]);
    assert.deepEqual(copy.synced_block, { synced_from: { type: 'block_id', block_id: original.id } });
    assert.equal(copy.has_children, true);
    assert.deepEqual(texts(await listAll(server, fx.token, copy.id)), ['shared text']);
    assertValidationError(
      await append(server, fx.token, page.id, [{ synced_block: { synced_from: { block_id: original.id }, children: [paragraph('x')] } }]),
      /body\.children\[0\]\.synced_block\.children should be not present/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ synced_block: { synced_from: { block_id: copy.id } } }]),
      /body\.children\[0\]\.synced_block\.synced_from\.block_id should be the ID of an original synced block/,
    );
    assertValidationError(await append(server, fx.token, copy.id, [paragraph('x')]), /that a synced block copy can hold/);
    assertValidationError(await patch(`/v1/blocks/${copy.id}`, { synced_block: { synced_from: null } }), /cannot be re-pointed/);
  });

  test('children listing paginates with opaque cursors bound to their parent', async () => {
    const page = await makeSharedPage(server, fx);
    await appendOk(
      server,
      fx.token,
      page.id,
      Array.from({ length: 23 }, (_, i) => paragraph(`p${i}`)),
    );
    const all = await listAll(server, fx.token, page.id, 5);
    assert.deepEqual(
      texts(all),
      Array.from({ length: 23 }, (_, i) => `p${i}`),
    );
    const first = await get(`/v1/blocks/${page.id}/children?page_size=5`);
    assert.equal(first.body.results.length, 5);
    assert.equal(typeof first.body.next_cursor, 'string');
    const other = await makeSharedPage(server, fx, 'Other');
    const foreign = await get(`/v1/blocks/${other.id}/children?start_cursor=${encodeURIComponent(first.body.next_cursor)}`);
    assertValidationError(foreign, /^query failed validation: query\.start_cursor/);
    assertValidationError(await get(`/v1/blocks/${page.id}/children?page_size=101`), /query\.page_size/);
    assert.equal((await get(`/v1/blocks/${page.id}/children`)).body.results.length, 23);
  });

  test('unshared, foreign and missing blocks are all object_not_found', async () => {
    const shared = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, shared.id, [paragraph('mine')]);
    const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
    const other = await makeWorkspace(server, { name: 'Other workspace' });
    const missing = '5b2e7f3e-9b4c-4d5e-8f6a-7b8c9d0e1f2a';
    for (const [id, token] of [
      [hidden.id, fx.token],
      [block.id, other.token],
      [missing, fx.token],
    ] as const) {
      for (const res of [
        await get(`/v1/blocks/${id}`, token),
        await get(`/v1/blocks/${id}/children`, token),
        await patch(`/v1/blocks/${id}`, { in_trash: true }, token),
        await del(`/v1/blocks/${id}`, token),
        await call<Json>(server.url, 'PATCH', `/v1/blocks/${id}/children`, { token, body: { children: [paragraph('x')] } }),
      ]) {
        assert.equal(res.status, 404, JSON.stringify(res.body));
        assert.equal(res.body.code, 'object_not_found');
        assert.equal(res.body.message, `Could not find block with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`);
      }
    }
    assertValidationError(await get('/v1/blocks/not-a-uuid'), /^path failed validation: path\.block_id should be a valid uuid/);
    // Sharing the page later reveals it and its content.
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: hidden.id });
    assert.equal((await get(`/v1/blocks/${hidden.id}`)).status, 200);
  });

  test('capabilities: read for reads, update for edits, insert for appends; insert alone gets partial blocks', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [paragraph('x')]);
    const readOnly = await addConnection(server, fx.workspaceId, ['read_content']);
    const insertOnly = await addConnection(server, fx.workspaceId, ['insert_content']);
    const updateOnly = await addConnection(server, fx.workspaceId, ['update_content']);
    for (const conn of [readOnly, insertOnly, updateOnly]) await admin(server, 'POST', `/connections/${conn.id}/grants`, { object_id: page.id });

    assert.equal((await get(`/v1/blocks/${block.id}`, readOnly.token)).status, 200);
    assert.equal((await get(`/v1/blocks/${block.id}`, insertOnly.token)).body.code, 'restricted_resource');
    assert.equal((await get(`/v1/blocks/${page.id}/children`, updateOnly.token)).status, 403);
    assert.equal((await patch(`/v1/blocks/${block.id}`, { paragraph: { color: 'red' } }, readOnly.token)).status, 403);
    assert.equal((await del(`/v1/blocks/${block.id}`, insertOnly.token)).status, 403);
    assert.equal((await append(server, readOnly.token, page.id, [paragraph('no')])).status, 403);

    const inserted = await append(server, insertOnly.token, page.id, [paragraph('yes')]);
    assert.equal(inserted.status, 200);
    assert.deepEqual(Object.keys(inserted.body.results[0]), ['object', 'id']);
    const updated = await patch(`/v1/blocks/${block.id}`, { paragraph: { color: 'red' } }, updateOnly.token);
    assert.deepEqual(updated.body, { object: 'block', id: block.id });
    assert.equal((await get(`/v1/blocks/${block.id}`)).body.paragraph.color, 'red');
  });
});

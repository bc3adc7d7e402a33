/**
 * The block change modules (src/versioning/changes/): for each, the same object or request in
 * the shape before and after its version, over raw HTTP.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/useServer.js';
import { call } from '../helpers/http.js';
import { makeSharedPage } from '../helpers/factories.js';
import { append, appendOk, assertValidationError, listAll, rt } from './fixtures.js';

type Json = Record<string, any>;

describe('block version changes', () => {
  const { server, fx } = useServer();

  const get = (path: string, version: string) => call<Json>(server.url, 'GET', path, { token: fx.token, version });
  const patch = (path: string, body: unknown, version: string) => call<Json>(server.url, 'PATCH', path, { token: fx.token, version, body });

  test('2021-08-16: append returned the parent block before, the list of new children since', async () => {
    const page = await makeSharedPage(server, fx);
    const old = await append(server, fx.token, page.id, [{ paragraph: { text: rt('old style') } }], {}, '2021-05-13');
    assert.equal(old.status, 200, JSON.stringify(old.body));
    assert.equal(old.body.object, 'block');
    assert.equal(old.body.id, page.id);
    assert.equal(old.body.type, 'child_page');
    assert.equal(old.body.has_children, true);
    assert.equal('folio:parent_block' in old.body, false);

    const [toggle] = await appendOk(server, fx.token, page.id, [{ toggle: { rich_text: rt('t') } }]);
    const oldUnderBlock = await append(server, fx.token, toggle.id, [{ paragraph: { text: rt('child') } }], {}, '2021-05-13');
    assert.deepEqual([oldUnderBlock.body.object, oldUnderBlock.body.id, oldUnderBlock.body.type], ['block', toggle.id, 'toggle']);
    assert.deepEqual(oldUnderBlock.body.toggle.text[0].plain_text, 't');

    const since = await append(server, fx.token, page.id, [{ paragraph: { text: rt('new style') } }], {}, '2021-08-16');
    assert.equal(since.body.object, 'list');
    assert.equal(since.body.results[0].paragraph.text[0].plain_text, 'new style');
    assert.equal('folio:parent_block' in since.body, false);
  });

  test('2022-02-22: blocks said `text` where they now say `rich_text`, in requests and responses', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [{ to_do: { rich_text: rt('milk'), checked: false } }]);
    const before = await get(`/v1/blocks/${block.id}`, '2021-08-16');
    const since = await get(`/v1/blocks/${block.id}`, '2022-02-22');
    assert.deepEqual(Object.keys(before.body.to_do), ['text', 'checked', 'color']);
    assert.deepEqual(Object.keys(since.body.to_do), ['rich_text', 'checked', 'color']);
    assert.deepEqual(before.body.to_do.text, since.body.to_do.rich_text);

    const updated = await patch(`/v1/blocks/${block.id}`, { to_do: { text: rt('oat milk') } }, '2021-08-16');
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.to_do.text[0].plain_text, 'oat milk');
    const nested = await append(
      server,
      fx.token,
      page.id,
      [{ toggle: { text: rt('outer'), children: [{ code: { text: rt('x'), language: 'c' } }] } }],
      {},
      '2021-08-16',
    );
    assert.equal(nested.status, 200, JSON.stringify(nested.body));
    const [code] = await listAll(server, fx.token, nested.body.results[0].id);
    assert.equal(code.code.rich_text[0].plain_text, 'x');
    // Since 2022-02-22 `text` is not a block field.
    assertValidationError(
      await append(server, fx.token, page.id, [{ paragraph: { text: rt('x') } }], {}, '2022-02-22'),
      /body\.children\[0\]\.paragraph\.rich_text should be defined/,
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ paragraph: { rich_text: [], text: rt('x') } }], {}, '2022-02-22'),
      /body\.children\[0\]\.paragraph\.text should be not present/,
    );
  });

  test('2022-06-28: blocks had no `parent` before', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [{ divider: {} }]);
    const before = await get(`/v1/blocks/${block.id}`, '2022-02-22');
    const since = await get(`/v1/blocks/${block.id}`, '2022-06-28');
    assert.equal('parent' in before.body, false);
    assert.deepEqual(since.body.parent, { type: 'page_id', page_id: page.id });
    const { parent: _parent, ...rest } = since.body;
    assert.deepEqual(before.body, rest);
    const listed = await get(`/v1/blocks/${page.id}/children`, '2022-02-22');
    assert.equal('parent' in listed.body.results[0], false);
  });

  test('2026-03-11: `after` became `position`', async () => {
    const page = await makeSharedPage(server, fx);
    const [a] = await appendOk(server, fx.token, page.id, [{ paragraph: { rich_text: rt('a') } }, { paragraph: { rich_text: rt('c') } }]);
    const old = await append(server, fx.token, page.id, [{ paragraph: { rich_text: rt('b') } }], { after: a.id }, '2025-09-03');
    assert.equal(old.status, 200, JSON.stringify(old.body));
    const now = await append(server, fx.token, page.id, [{ paragraph: { rich_text: rt('a2') } }], {
      position: { type: 'after_block', after_block: { id: a.id } },
    });
    assert.equal(now.status, 200);
    assert.deepEqual(
      (await listAll(server, fx.token, page.id)).map((b) => b.paragraph.rich_text[0].plain_text),
      ['a', 'a2', 'b', 'c'],
    );
    assertValidationError(
      await append(server, fx.token, page.id, [{ divider: {} }], { after: a.id }),
      /^body failed validation: body\.after should be not present/,
    );
    // Both at an old version: `after` is left for the schema to refuse.
    assertValidationError(
      await append(server, fx.token, page.id, [{ divider: {} }], { after: a.id, position: { type: 'start' } }, '2025-09-03'),
      /body\.after should be not present/,
    );
  });

  test('2026-03-11: `archived` was an alias of `in_trash` on blocks', async () => {
    const page = await makeSharedPage(server, fx);
    const [block] = await appendOk(server, fx.token, page.id, [{ quote: { rich_text: rt('q') } }]);
    const before = await get(`/v1/blocks/${block.id}`, '2025-09-03');
    const since = await get(`/v1/blocks/${block.id}`, '2026-03-11');
    assert.deepEqual(Object.keys(before.body).slice(7, 10), ['has_children', 'archived', 'in_trash']);
    assert.equal(before.body.archived, false);
    assert.equal('archived' in since.body, false);
    const { archived: _archived, ...rest } = before.body;
    assert.deepEqual(rest, since.body);

    const trashed = await patch(`/v1/blocks/${block.id}`, { archived: true }, '2025-09-03');
    assert.deepEqual([trashed.status, trashed.body.archived, trashed.body.in_trash], [200, true, true]);
    const restored = await patch(`/v1/blocks/${block.id}`, { archived: false, in_trash: false }, '2022-06-28');
    assert.deepEqual([restored.status, restored.body.archived, restored.body.in_trash], [200, false, false]);
    assertValidationError(await patch(`/v1/blocks/${block.id}`, { archived: true, in_trash: false }, '2025-09-03'), /body\.archived should be not present/);
    assertValidationError(await patch(`/v1/blocks/${block.id}`, { archived: true }, '2026-03-11'), /body\.archived should be not present/);
    const deleted = await call<Json>(server.url, 'DELETE', `/v1/blocks/${block.id}`, { token: fx.token, version: '2021-05-13' });
    assert.deepEqual([deleted.body.archived, deleted.body.in_trash, 'parent' in deleted.body], [true, true, false]);
    const list = await listAll(server, fx.token, page.id, 100, '2025-09-03');
    assert.deepEqual(list, []);
  });
});

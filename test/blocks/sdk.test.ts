/**
 * The block endpoints through the official SDK (`@notionhq/client`), at its default version
 * (2025-09-03) and at 2026-03-11: every returned block passes isFullBlock, pagination helpers
 * walk the children, and the version-specific parameters (`after`, `position`, `archived`) work
 * where the SDK sends them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { APIErrorCode, APIResponseError, Client, collectPaginatedAPI, isFullBlock, iteratePaginatedAPI } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { everyBlockType, rt } from './fixtures.js';

const quiet = () => {};

describe('blocks through the official SDK', () => {
  const { server, fx } = useServer();

  for (const notionVersion of ['2025-09-03', '2026-03-11'] as const) {
    describe(`notionVersion ${notionVersion}`, () => {
      const client = () => new Client({ auth: fx.token, baseUrl: server.url, notionVersion, logger: quiet });

      test('append, retrieve and list every block type; every block is a full block', async () => {
        const page = await makeSharedPage(server, fx);
        const cases = everyBlockType();
        const appended = await client().blocks.children.append({ block_id: page.id, children: cases.map((c) => c.request) as any });
        assert.equal(appended.results.length, cases.length);
        for (const [i, block] of appended.results.entries()) {
          assert.ok(isFullBlock(block), `full block: ${JSON.stringify(block)}`);
          assert.equal(block.type, cases[i].type);
          cases[i].expect((block as any)[block.type]);
          assert.equal('archived' in block, notionVersion === '2025-09-03');
          const retrieved = await client().blocks.retrieve({ block_id: block.id });
          assert.ok(isFullBlock(retrieved));
          assert.deepEqual(retrieved, block);
        }
        const listed = await collectPaginatedAPI(client().blocks.children.list, { block_id: page.id, page_size: 4 });
        assert.deepEqual(listed, appended.results);
        for await (const block of iteratePaginatedAPI(client().blocks.children.list, { block_id: page.id })) assert.ok(isFullBlock(block));
        const pageBlock = await client().blocks.retrieve({ block_id: page.id });
        assert.ok(isFullBlock(pageBlock) && pageBlock.type === 'child_page' && pageBlock.child_page.title === 'Shared page');
      });

      test('update, delete and restore', async () => {
        const page = await makeSharedPage(server, fx);
        const { results } = await client().blocks.children.append({ block_id: page.id, children: [{ to_do: { rich_text: rt('task') as any } }] });
        const id = results[0].id;
        const updated = await client().blocks.update({ block_id: id, to_do: { checked: true } });
        assert.ok(isFullBlock(updated) && updated.type === 'to_do');
        assert.deepEqual([updated.to_do.checked, updated.to_do.rich_text[0].plain_text], [true, 'task']);
        const deleted = await client().blocks.delete({ block_id: id });
        assert.ok(isFullBlock(deleted) && deleted.in_trash);
        assert.deepEqual((await client().blocks.children.list({ block_id: page.id })).results, []);
        try {
          await client().blocks.update({ block_id: id, to_do: { checked: false } });
          assert.fail('editing a trashed block must fail');
        } catch (error) {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ValidationError);
        }
        const restored = await client().blocks.update(notionVersion === '2025-09-03' ? { block_id: id, archived: false } : { block_id: id, in_trash: false });
        assert.ok(isFullBlock(restored) && !restored.in_trash);
        assert.equal((await client().blocks.children.list({ block_id: page.id })).results.length, 1);
      });

      test(notionVersion === '2025-09-03' ? 'append after a block with `after`' : 'append with `position`', async () => {
        const page = await makeSharedPage(server, fx);
        const { results } = await client().blocks.children.append({
          block_id: page.id,
          children: [{ paragraph: { rich_text: rt('a') as any } }, { paragraph: { rich_text: rt('c') as any } }],
        });
        const placed =
          notionVersion === '2025-09-03' ? { after: results[0].id } : { position: { type: 'after_block' as const, after_block: { id: results[0].id } } };
        await client().blocks.children.append({ block_id: page.id, children: [{ paragraph: { rich_text: rt('b') as any } }], ...placed });
        if (notionVersion === '2026-03-11') {
          await client().blocks.children.append({
            block_id: page.id,
            children: [{ paragraph: { rich_text: rt('start') as any } }],
            position: { type: 'start' },
          });
        }
        const listed = await collectPaginatedAPI(client().blocks.children.list, { block_id: page.id });
        const texts = listed.map((b) => (isFullBlock(b) && b.type === 'paragraph' ? b.paragraph.rich_text[0].plain_text : '?'));
        assert.deepEqual(texts, notionVersion === '2025-09-03' ? ['a', 'b', 'c'] : ['start', 'a', 'b', 'c']);
      });

      test('errors arrive as APIResponseError with the service codes', async () => {
        const page = await makeSharedPage(server, fx);
        await assert.rejects(client().blocks.retrieve({ block_id: '5b2e7f3e-9b4c-4d5e-8f6a-7b8c9d0e1f2a' }), (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ObjectNotFound);
          return true;
        });
        const tooMany = Array.from({ length: 101 }, () => ({ divider: {} }));
        await assert.rejects(client().blocks.children.append({ block_id: page.id, children: tooMany }), (error: unknown) => {
          assert.ok(APIResponseError.isAPIResponseError(error));
          assert.equal(error.code, APIErrorCode.ValidationError);
          return true;
        });
      });
    });
  }
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { everyBlockType, rt } from '../blocks/fixtures.js';
import { assertAccessible, openConsole, screenshot, useBrowser } from './consoleBrowser.js';

/** A 1×1 PNG: an uploaded picture whose signed link the rendered page must load. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('console: content — the page tree, a page rendered, a database filtered, trash and restore', () => {
  const { server, fx } = useServer();
  const browser = useBrowser();
  const sdk = () => new Client({ auth: fx.token, baseUrl: server.url, retry: false } as any);

  test('a page renders every block type, annotations, colours, mentions, equations and an uploaded image by its signed link; trash and restore', async () => {
    const page = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Handbook' });
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: page.id });
    const upload = await sdk().fileUploads.create({ mode: 'single_part', filename: 'dot.png', content_type: 'image/png' } as any);
    await sdk().fileUploads.send({ file_upload_id: upload.id, file: { filename: 'dot.png', data: new Blob([PNG], { type: 'image/png' }) } } as any);
    await sdk().blocks.children.append({
      block_id: page.id,
      children: [
        ...everyBlockType().map((c) => c.request),
        {
          paragraph: {
            rich_text: [
              { text: { content: 'bold' }, annotations: { bold: true } },
              { text: { content: ' red', link: { url: 'https://example.com/red' } }, annotations: { color: 'red', italic: true } },
              { mention: { user: { id: fx.user.id } } },
              { mention: { date: { start: '2026-01-02' } } },
              { equation: { expression: 'a^2+b^2' } },
              { text: { content: 'inline code' }, annotations: { code: true } },
            ],
          },
        },
        { toggle: { rich_text: rt('Open me'), children: [{ paragraph: { rich_text: rt('hidden inside') } }] } },
        { image: { type: 'file_upload', file_upload: { id: upload.id } } } as any,
      ] as any,
    });
    // Rate-limited twice on the way: the console waits as told and carries on, as the SDK does.
    await admin(server, 'POST', '/faults', { path: '/v1/blocks', status: 429, retry_after: 1, count: 2 });
    const tab = await openConsole(browser(), server, `#/content/${fx.workspaceId}`);
    await tab.getByRole('list', { name: 'Pages and databases' }).getByRole('button', { name: 'Handbook', exact: true }).click();
    await tab.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
    const body = tab.locator('.blocks');
    for (const text of ['para', 'h1', 'h2', 'h3', 'h4', 'bullet', 'one', 'task', 'tog', 'q', 'note', 'let x = 1', 'a', 'd', 'left', 'synced', 'the report']) {
      await body.getByText(text, { exact: true }).first().waitFor();
    }
    assert.equal(await body.getByText(/Unsupported block/).count(), 0, 'every block type has a rendering');
    // A fault spent is gone; the log shows the two refusals the console waited out.
    assert.equal((await admin(server, 'GET', '/requests?status=429')).results.length, 2, 'the rate-limited requests were retried');
    assert.equal(await body.locator('.b', { hasText: 'bold' }).count(), 1);
    assert.equal(await body.locator('.c-red.i a[href="https://example.com/red"]').count(), 1);
    await body.locator('.mention-user', { hasText: '@Ada Lovelace' }).waitFor();
    await body.locator('.mention-date', { hasText: '2026-01-02' }).waitFor();
    // Equations typeset as MathML (KaTeX, loaded with the first one), their TeX kept as the annotation.
    await body.locator('div.equation math[display="block"] annotation[encoding="application/x-tex"]', { hasText: 'e=mc^2' }).waitFor({ state: 'attached' });
    await body.locator('span.equation math annotation[encoding="application/x-tex"]', { hasText: 'a^2+b^2' }).waitFor({ state: 'attached' });
    assert.equal(await body.locator('div.equation math mi', { hasText: 'e' }).count(), 1);
    await body.locator('code', { hasText: 'inline code' }).waitFor();
    // A toggle opens on a click (keyboard too: a summary is a button).
    await body.getByText('Open me').click();
    await body.getByText('hidden inside').waitFor();
    // The uploaded picture is loaded through its signed /files/ link.
    const img = body.locator('img[alt="image"]').last();
    await img.waitFor();
    assert.match((await img.getAttribute('src'))!, new RegExp(`^${server.url}/files/.+signature=`));
    await tab.waitForFunction(() => [...document.querySelectorAll('img')].some((i) => i.src.includes('/files/') && i.naturalWidth === 1));
    await assertAccessible(tab, 'page');
    await screenshot(tab, 'page');

    await tab.getByRole('button', { name: 'Move to trash' }).click();
    await tab.locator('.page-head .badge', { hasText: 'in trash' }).waitFor();
    assert.equal(((await sdk().pages.retrieve({ page_id: page.id })) as any).in_trash, true);
    await tab.getByRole('button', { name: 'Restore' }).click();
    await tab.getByRole('button', { name: 'Move to trash' }).waitFor();
    assert.equal(((await sdk().pages.retrieve({ page_id: page.id })) as any).in_trash, false);
    await tab.close();
  });

  test('a database as a table: a compound filter two levels deep and a sort give the rows dataSources.query gives, paged server-side', async () => {
    const host = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Projects home' });
    await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: host.id });
    const database: any = await sdk().databases.create({
      parent: { type: 'page_id', page_id: host.id },
      title: [{ text: { content: 'Projects' } }],
      initial_data_source: {
        properties: {
          Name: { title: {} },
          Score: { number: {} },
          Done: { checkbox: {} },
          Tag: { select: { options: [{ name: 'alpha' }, { name: 'beta' }] } },
        },
      },
    } as any);
    const dataSourceId = database.data_sources[0].id;
    for (let i = 0; i < 60; i++) {
      await sdk().pages.create({
        parent: { data_source_id: dataSourceId },
        properties: {
          Name: { title: [{ text: { content: `Project ${i}` } }] },
          Score: { number: i % 10 },
          Done: { checkbox: i % 3 === 0 },
          Tag: { select: { name: i % 2 ? 'alpha' : 'beta' } },
        },
      } as any);
    }
    const tab = await openConsole(browser(), server, `#/content/${fx.workspaceId}`);
    const tree = tab.getByRole('list', { name: 'Pages and databases' });
    await tree.getByRole('button', { name: 'Expand Projects home' }).click();
    await tree.getByRole('button', { name: 'Projects', exact: true }).click();
    await tab.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    // Unfiltered: the first server page of 50, then the next.
    await tab.getByText('Page 1 · 50 rows').waitFor();
    await tab.getByRole('button', { name: 'Next' }).click();
    await tab.getByText('Page 2 · 10 rows').waitFor();

    // Score > 6 and (Done is true or Tag is beta), sorted by Score descending.
    await tab.getByRole('button', { name: 'Add condition' }).click();
    const first = tab.locator('.condition').nth(0);
    await first.getByLabel('Property', { exact: true }).selectOption('Score');
    await first.getByLabel('Condition', { exact: true }).selectOption('greater_than');
    await first.getByLabel('Value', { exact: true }).fill('6');
    await tab.getByRole('button', { name: 'Add group' }).click();
    const nested = tab.getByRole('group', { name: 'Nested group' });
    await nested.locator('.condition').nth(0).getByLabel('Property', { exact: true }).selectOption('Done');
    await nested.locator('.condition').nth(0).getByLabel('Value', { exact: true }).selectOption('true');
    await nested.getByRole('button', { name: 'Add condition' }).click();
    await nested.locator('.condition').nth(1).getByLabel('Property', { exact: true }).selectOption('Tag');
    await nested.locator('.condition').nth(1).getByLabel('Value', { exact: true }).selectOption('beta');
    await tab.getByRole('button', { name: 'Add sort' }).click();
    await tab.getByLabel('Sort by').selectOption('Score');
    await tab.getByLabel('Direction').selectOption('descending');
    await tab.getByRole('button', { name: 'Apply' }).click();

    const shown = JSON.parse(await tab.getByLabel('Query body (copy into code)').inputValue());
    assert.deepEqual(shown.filter, {
      and: [
        { property: 'Score', number: { greater_than: 6 } },
        {
          or: [
            { property: 'Done', checkbox: { equals: true } },
            { property: 'Tag', select: { equals: 'beta' } },
          ],
        },
      ],
    });
    const expected: any = await sdk().dataSources.query({ data_source_id: dataSourceId, filter: shown.filter, sorts: shown.sorts, page_size: 50 } as any);
    assert.ok(expected.results.length > 0 && expected.results.length < 60);
    await tab.getByText(`Page 1 · ${expected.results.length} rows`).waitFor();
    const ids = await tab.locator('table[aria-label="Rows"] tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-page-id')));
    assert.deepEqual(
      ids,
      expected.results.map((r: any) => r.id),
    );
    await assertAccessible(tab, 'database');
    await screenshot(tab, 'database');
    await tab.close();
  });
});

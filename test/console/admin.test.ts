import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { Client } from '@notionhq/client';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { assertAccessible, newTab, openConsole, screenshot, useBrowser } from './consoleBrowser.js';

describe('console: sign-in, workspaces, users, connections, shares, the live log, faults', () => {
  const { server } = useServer();
  const browser = useBrowser();

  test('the console is served at /console with its own policy, and the start banner names it', async () => {
    const index = await fetch(`${server.url}/console/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await index.text();
    assert.match(html, /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js">/);
    // First load under 300 KB of JavaScript gzipped (issue 28): every script the page loads.
    let gzipped = 0;
    for (const [, src] of html.matchAll(/<script[^>]*src="([^"]+)"/g)) {
      const script = await fetch(`${server.url}${src}`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('cache-control') ?? '', /immutable/);
      gzipped += gzipSync(Buffer.from(await script.arrayBuffer()), { level: 9 }).length;
    }
    assert.ok(gzipped > 0 && gzipped < 300 * 1024, `first load ${gzipped} bytes of JavaScript gzipped`);
    const bare = await fetch(`${server.url}/console`, { redirect: 'manual' });
    assert.ok([200, 301, 302].includes(bare.status), `GET /console answered ${bare.status}`);
  });

  test('a wrong admin token is refused with a clear message; the right one signs in; sign-out forgets it', async () => {
    const page = await newTab(browser());
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'That admin token was refused' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await assertAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in-refused');
    // By keyboard alone: the token field, Enter to sign in, Tab to a panel's link, Enter to open it.
    await page.getByLabel('Admin token').fill('');
    await page.getByLabel('Admin token').focus();
    await page.keyboard.type(server.adminToken);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Faults'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Faults', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Workspaces' }).click();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('folio.adminToken')), server.adminToken);
    assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing is kept beyond the session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('folio.adminToken')), null);
    await page.close();
  });

  test('create a workspace, a user and a connection; share a page and see its tree; revoke it and see its refused request live', async () => {
    const page = await openConsole(browser(), server);
    await page.getByLabel('New workspace').fill('Console workspace');
    await page.getByRole('button', { name: 'Create' }).first().click();
    await page.getByRole('heading', { name: 'Console workspace', level: 1 }).waitFor();
    const workspaceId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    // Rename, seen in the list and the heading.
    await page.getByLabel('Rename to').fill('Renamed workspace');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'Renamed workspace', level: 1 }).waitFor();
    assert.equal((await admin(server, 'GET', `/workspaces/${workspaceId}`)).name, 'Renamed workspace');

    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@example.com');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('cell', { name: 'grace@example.com' }).waitFor();

    // A personal connection acts for a person chosen from the workspace's people.
    await page.getByLabel('New connection').fill("Grace's integration");
    await page.getByLabel('Kind', { exact: true }).selectOption('personal');
    await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Grace Hopper' });
    await page.getByRole('button', { name: 'Create' }).nth(1).click();
    await page.getByRole('link', { name: "Grace's integration" }).waitFor();
    const grace = (await admin(server, 'GET', `/workspaces/${workspaceId}/users`)).results.find((u: any) => u.name === 'Grace Hopper');
    const personal = (await admin(server, 'GET', `/workspaces/${workspaceId}/connections`)).results.find((c: any) => c.name === "Grace's integration");
    assert.equal(personal.kind, 'personal');
    assert.equal(personal.user_id, grace.id);

    await page.getByLabel('New connection').fill('My integration');
    await page.getByLabel('Kind', { exact: true }).selectOption('internal');
    await page.getByRole('button', { name: 'Create' }).nth(1).click();
    await page.getByRole('link', { name: 'My integration' }).waitFor();
    const token = (await page.getByTestId('issued-token').textContent())!;
    assert.match(token, /^\S{20,}$/);
    await assertAccessible(page, 'workspace');
    await screenshot(page, 'workspace');

    // Pages to share: one with a child, one left unshared.
    const roadmap = await admin(server, 'POST', `/workspaces/${workspaceId}/pages`, { title: 'Roadmap' });
    await admin(server, 'POST', `/workspaces/${workspaceId}/pages`, { title: 'Private notes' });
    const sdk = new Client({ auth: token, baseUrl: server.url, retry: false } as any);
    await page.getByRole('link', { name: 'My integration' }).click();
    await page.getByRole('heading', { name: 'My integration', level: 1 }).waitFor();
    await page.getByText('Nothing is shared with this connection').waitFor();
    await page.getByLabel('Share a page or database').selectOption({ label: 'Roadmap' });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const visible = page.getByRole('list', { name: 'Visible to this connection' });
    await visible.getByText('Roadmap').waitFor();
    assert.equal(await visible.getByText('Private notes').count(), 0);
    // The tree is what the connection sees: the SDK agrees.
    await sdk.pages.create({ parent: { page_id: roadmap.id }, properties: { title: { title: [{ text: { content: 'Q3 goals' } }] } } });
    await visible.getByRole('button', { name: 'Expand Roadmap' }).click();
    await visible.getByText('Q3 goals').waitFor();
    const seen = await sdk.search({});
    assert.deepEqual(seen.results.map((r: any) => r.properties.title.title[0].plain_text).sort(), ['Q3 goals', 'Roadmap']);
    await assertAccessible(page, 'connection');
    await screenshot(page, 'connection');

    // Capabilities: dropping insert_content is saved.
    // A controlled box: it shows the saved state once the server has answered.
    await page.getByRole('checkbox', { name: 'insert_content' }).click();
    await waitFor(async () => !(await admin(server, 'GET', `/connections/${await connectionId(page)}`)).capabilities.includes('insert_content'));
    await waitFor(async () => !(await page.getByRole('checkbox', { name: 'insert_content' }).isChecked()));

    // Remove the share: the tree empties.
    await page.getByRole('button', { name: 'Remove share of Roadmap' }).click();
    await page.getByText('Nothing is shared with this connection').waitFor();

    // The live log, open in a second tab, sees the revoked token's request fail.
    const log = await openConsole(browser(), server, '#/requests');
    await log.getByText('live', { exact: true }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke connection' }).click();
    await page.getByRole('heading', { name: 'Renamed workspace', level: 1 }).waitFor();
    const refused = await call(server.url, 'GET', '/v1/users/me', { token });
    assert.equal(refused.status, 401);
    const row = log.locator('tr[data-status="401"]').filter({ hasText: '/v1/users/me' });
    await row.waitFor();
    assert.match((await row.textContent())!, /unauthorized/);
    await row.getByRole('button', { name: '/v1/users/me' }).click();
    const detail = log.getByRole('complementary', { name: 'Request details' });
    await detail.getByRole('definition').getByText('unauthorized', { exact: true }).waitFor();
    // The answer it got, as kept by the log.
    assert.equal(JSON.parse((await detail.getByTestId('response-body').textContent())!).code, 'unauthorized');
    await assertAccessible(log, 'request log');
    await screenshot(log, 'request-log');
    await log.close();
    await page.close();
  });

  test('a 503 fault set in the console is seen in the live log, then lifted', async () => {
    const page = await openConsole(browser(), server, '#/faults');
    await page.getByLabel('Status').selectOption('503');
    await page.getByLabel('Path (prefix, e.g. /v1/users)').fill('/v1/users');
    await page.getByRole('button', { name: 'Set fault' }).click();
    await page.getByRole('cell', { name: '/v1/users' }).waitFor();
    await assertAccessible(page, 'faults');
    await screenshot(page, 'faults');
    const log = await openConsole(browser(), server, '#/requests');
    await log.getByText('live', { exact: true }).waitFor();
    const failed = await call(server.url, 'GET', '/v1/users', { token: await someToken() });
    assert.equal(failed.status, 503);
    await log.locator('tr[data-status="503"]').filter({ hasText: '/v1/users' }).waitFor();
    // The fault's hits, read again while the panel is open.
    await page.getByRole('table', { name: 'Faults' }).locator('tbody td').nth(4).filter({ hasText: /^1$/ }).waitFor();
    await page.getByRole('button', { name: 'Lift', exact: true }).click();
    await page.getByRole('cell', { name: '/v1/users' }).waitFor({ state: 'detached' });
    const ok = await call(server.url, 'GET', '/v1/users', { token: await someToken() });
    assert.equal(ok.status, 200);
    await log.close();
    await page.close();
  });

  let spare: string | undefined;
  async function someToken(): Promise<string> {
    if (spare) return spare;
    const ws = await admin(server, 'POST', '/workspaces', { name: 'Spare' });
    spare = (
      await admin(server, 'POST', `/workspaces/${ws.id}/connections`, {
        name: 'Spare',
        kind: 'internal',
        capabilities: ['read_content', 'user_info_without_email'],
      })
    ).token as string;
    return spare;
  }
});

async function connectionId(page: import('playwright-core').Page): Promise<string> {
  return decodeURIComponent(new URL(page.url()).hash.split('/')[4]);
}

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Issue 28's new-user line: `npm start` on a fresh clone leaves an empty store; the console then
 * offers the README's example workspace, and a page and a database are one click further.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useServer } from '../helpers/useServer.js';
import { admin } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { assertAccessible, openConsole, screenshot, useBrowser } from './consoleBrowser.js';

describe('console: the first run on an empty store', () => {
  // Its own database on PostgreSQL: the store must hold no workspace at all.
  const { server, fx } = useServer({ ownDatabase: true });
  const browser = useBrowser();

  test('no workspaces: the example workspace loads with one click, and its page and database are in the tree', async () => {
    await admin(server, 'DELETE', `/workspaces/${fx.workspaceId}`);
    assert.equal((await admin(server, 'GET', '/workspaces')).results.length, 0);
    const page = await openConsole(browser(), server, '#/workspaces');
    await page.getByRole('heading', { name: 'No workspaces yet' }).waitFor();
    await assertAccessible(page, 'first-run');
    await screenshot(page, 'first-run');
    await page.getByRole('button', { name: 'Load the example workspace' }).click();

    const tree = page.getByRole('list', { name: 'Pages and databases' });
    await tree.getByRole('button', { name: 'Welcome to Folio', exact: true }).waitFor();
    await tree.getByRole('button', { name: 'Welcome to Folio', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome to Folio', level: 1 }).waitFor();
    await tree.getByRole('button', { name: 'Expand Welcome to Folio' }).click();
    await tree.getByRole('button', { name: 'Tasks', exact: true }).waitFor();
    // The database inside the page opens from the page itself too.
    await page.locator('.blocks').getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('cell', { name: 'Write the fixture' }).waitFor();
    await page.getByRole('cell', { name: 'Try the API' }).waitFor();
    await screenshot(page, 'first-run-example');
    // What was loaded is the README's fixture: its token works as written.
    const me = await call<{ name: string }>(server.url, 'GET', '/v1/users/me', { token: 'secret_folio_example' });
    assert.equal(me.status, 200);
    // Loaded once: the offer is gone while a workspace exists.
    await page.goto(`${server.url}/console/#/workspaces`);
    await page.getByRole('link', { name: 'Example workspace' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'No workspaces yet' }).count(), 0);
    await page.close();
  });
});

/**
 * What the console's browser tests share: the console built (cached: scripts/buildConsole.mjs
 * rebuilds only when console/ or src/schemas/ changed), Debian's Chromium driven by playwright-core,
 * signing in, screenshots kept under .artifacts/console/ (gitignored), and the axe-core check.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';
import { STORE, type TestServer } from '../helpers/server.js';

const root = PACKAGE_ROOT;
export const ARTIFACTS = path.join(root, '.artifacts', 'console');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** One browser for the file; a fresh page (its own sessionStorage) per test. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  // Built now, while the suite is declared: before any server of the file starts, since the server
  // serves the console it finds at start.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildConsole.mjs')], { stdio: 'inherit' });
  before(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required', '--mute-audio'],
    });
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    assert.ok(browser, 'the browser is read before the before() hook that launches it has run');
    return browser;
  };
}

/** A fresh tab; CSP bypassed only so axe-core can be injected (the policy itself is asserted over HTTP). */
export async function newTab(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  page.setDefaultTimeout(10_000);
  return page;
}

export async function openConsole(browser: Browser, server: TestServer, hash = ''): Promise<Page> {
  const page = await newTab(browser);
  await page.goto(`${server.url}/console/${hash}`);
  await page.getByLabel('Admin token').fill(server.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${STORE}.png`), fullPage: true });
}

/** axe-core in the page: no serious or critical violation. */
export async function assertAccessible(page: Page, view: string): Promise<void> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, options: unknown): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, [], `${view}: accessibility violations`);
}

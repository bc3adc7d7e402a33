/**
 * Issue 26 item 9: on a machine without the Debian speech packages, `npm test` stops at once with
 * a message naming what is missing and the one command that installs it, instead of failing deep
 * inside the meeting-notes tests. Run as a user would: `npm test`, with a PATH holding only node and npm.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/packageInfo.js';

const ROOT = PACKAGE_ROOT;
const NPM = fs.realpathSync(spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim());

/** A directory to use as PATH, holding node, npm, the shell npm runs scripts with and the named extra executables. */
function pathWith(extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-path-'));
  fs.symlinkSync(process.execPath, path.join(dir, 'node'));
  fs.symlinkSync(fs.realpathSync('/bin/sh'), path.join(dir, 'sh'));
  fs.symlinkSync(NPM, path.join(dir, 'npm'));
  for (const [name, target] of Object.entries(extra)) fs.symlinkSync(target, path.join(dir, name));
  return dir;
}

function npmTest(pathDir: string) {
  return spawnSync(path.join(pathDir, 'npm'), ['test'], {
    cwd: ROOT,
    env: { HOME: os.homedir(), PATH: pathDir },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm test on a machine without the speech packages', () => {
  test('stops before any test with the missing tools and the command that installs them', () => {
    const started = performance.now();
    const run = npmTest(pathWith());
    assert.equal(run.status, 1, run.stderr);
    assert.ok(performance.now() - started < 30_000);
    assert.match(run.stderr, /espeak-ng \(the espeak-ng package\)/);
    assert.match(run.stderr, /pocketsphinx_continuous \(the pocketsphinx package\)/);
    assert.match(run.stderr, /sudo apt-get install -y espeak-ng pocketsphinx pocketsphinx-en-us/);
    assert.doesNotMatch(run.stdout, /^# tests/m, 'no test ran');
  });

  test('names only what is missing', () => {
    const run = npmTest(pathWith({ 'espeak-ng': fs.realpathSync('/usr/bin/espeak-ng') }));
    assert.equal(run.status, 1);
    assert.doesNotMatch(run.stderr, /espeak-ng \(the espeak-ng package\)/);
    assert.match(run.stderr, /pocketsphinx_continuous/);
  });

  test('a pocketsphinx without its English model is named as the model package', () => {
    const fake = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-sphinx-'));
    fs.mkdirSync(path.join(fake, 'bin'));
    const binary = path.join(fake, 'bin', 'pocketsphinx_continuous');
    fs.writeFileSync(binary, '#!/bin/sh\n', { mode: 0o755 });
    const run = npmTest(pathWith({ 'espeak-ng': fs.realpathSync('/usr/bin/espeak-ng'), pocketsphinx_continuous: binary }));
    assert.equal(run.status, 1);
    assert.match(run.stderr, /the pocketsphinx-en-us package/);
  });

  test('passes on a machine that has them (this one: CI installs them)', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'checkTestTools.mjs')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  });
});

/**
 * The README's "From clone to a first write", run as a reader would: its shell blocks, in order, in
 * bash, against a real server started the way `npm start` starts it. Only `FOLIO`, the one line the
 * README says to change for another port, is changed, and the admin token is where a first start
 * leaves it (`.folio/admin-token` in the working directory).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, startChildServer, type ChildServer } from './childServer.js';
import { synthesizeSpeech } from '../processing/speech.js';

/** The `sh` blocks of one README section, in order. */
function shBlocks(heading: string): string[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`## ${heading}\n`);
  assert.ok(start >= 0, `the README has "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]);
}

function quickStartScript(): string {
  const blocks = shBlocks('From clone to a first write');
  assert.equal(blocks.length, 3, 'admin setup, curl, SDK');
  return blocks.join('\n');
}

/** Runs `script` in bash in a directory laid out as a clone after a first start, against `server`. */
function runAsReader(script: string, server: ChildServer, env: Record<string, string> = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-readme-'));
  // Where a first start leaves the token, and the clone's packages, as in the clone's directory.
  fs.mkdirSync(path.join(work, '.folio'));
  fs.writeFileSync(path.join(work, '.folio', 'admin-token'), server.adminToken);
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(work, 'node_modules'));
  const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script.replace(/^FOLIO=.*$/m, `FOLIO=${server.url}`)], {
    cwd: work,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeout: 150_000,
  });
  return { run, work };
}

describe('the README quick start', () => {
  test('runs as written on a server at another port: curl and the SDK both write and read', { timeout: 120_000 }, async () => {
    const script = quickStartScript();
    assert.equal(script.match(/^FOLIO=http:\/\/127\.0\.0\.1:7071$/gm)?.length, 1, 'one address, set once');
    assert.doesNotMatch(script.replace(/^FOLIO=.*$/m, ''), /7071|localhost/, 'no other line names the address');

    const server = await startChildServer();
    let work: string | undefined;
    try {
      const reader = runAsReader(script, server);
      work = reader.work;
      const { run } = reader;
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /"plain_text":"Hello from curl"/, run.stdout);
      assert.match(run.stdout, /wrote block [0-9a-f-]{36}/, run.stdout);
      assert.match(run.stdout, /\[ 'Hello from curl', 'Hello from the SDK' \]/, run.stdout);
      assert.ok(fs.existsSync(path.join(work, '.scratch', 'first-write.mjs')), 'the script is written under .scratch/, which git ignores');
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
      if (work) fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('the README meeting-notes recipe', () => {
  test('runs as written after the quick start, on the SDK default version: a recording becomes notes', { timeout: 180_000 }, async () => {
    const [recipe, ...rest] = shBlocks('Meeting notes');
    assert.equal(rest.length, 0, 'one recipe');
    assert.doesNotMatch(recipe, /notionVersion/, 'the SDK at its default version');
    const audioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-recording-'));
    const audio = path.join(audioDir, 'standup.wav');
    await synthesizeSpeech('Good morning. We decided to ship the release on Friday. Alice will write the notes.', audio);
    const server = await startChildServer();
    let work: string | undefined;
    try {
      const reader = runAsReader(`${quickStartScript()}\n${recipe}`, server, { AUDIO: audio });
      work = reader.work;
      const { run } = reader;
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /^status notes_ready$/m, run.stdout);
      assert.match(run.stdout, /^transcript: .*\w/m, run.stdout);
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
      if (work) fs.rmSync(work, { recursive: true, force: true });
      fs.rmSync(audioDir, { recursive: true, force: true });
    }
  });
});

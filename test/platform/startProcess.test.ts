/**
 * Issue 11, items 5 and 6, on started server processes: `npm start` builds only when needed, two
 * starts at once share one build, a signal to npm's process stops the server; the generated admin
 * token survives a failed start; an unreachable PostgreSQL is named; migrations report progress;
 * a failed request's log line carries its error.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { STORE } from '../helpers/server.js';
import { createStore } from '../../src/storage/createStore.js';
import { freePort, REPO_ROOT, startChildServer } from './childServer.js';
import { compiledCli } from '../helpers/compiledCli.js';

interface Started {
  pid: number;
  hasExited: () => boolean;
  output: () => string;
  exited: Promise<number | string>;
}

/** Spawns a command with the operator's environment and collects its output. */
function run(command: string, args: string[], env: Record<string, string>): Started {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, FOLIO_RATE_LIMIT: 'off', FOLIO_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a failed test can end npm's children too (killGroup).
    detached: true,
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  let ended = false;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  return { pid: child.pid!, hasExited: () => ended, output: () => output, exited };
}

/**
 * Ends everything a start left: npm killed alone leaves its shell and the server running, and their
 * open output pipes would keep this test file from ever ending.
 */
function killGroup(started: Started): void {
  try {
    process.kill(-started.pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/**
 * This file's own admin token, for the starts below: a port picked with freePort() may meanwhile be
 * taken by another test file's server (files run side by side), which would answer /healthz just
 * as well; only ours answers an admin request with this token.
 */
const ADMIN_TOKEN = `start-process-${randomBytes(12).toString('hex')}`;

/** Whether our server (not merely some server) answers on `port`. */
async function ours(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/admin/v1/faults`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  await res.arrayBuffer();
  return res.ok;
}

async function healthy(port: number, started: Started, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  let ended = false;
  void started.exited.then(() => (ended = true));
  for (;;) {
    assert.ok(!ended, `exited before it was healthy:\n${started.output()}`);
    try {
      if (await ours(port)) return;
    } catch {
      // not listening yet
    }
    assert.ok(Date.now() < deadline, `not healthy within ${seconds} s:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    return await ours(port);
  } catch {
    return false;
  }
}

const storeEnv = (): Record<string, string> => (process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {});
const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'folio-start-'));

describe('started processes', () => {
  test('npm start: two starts at once share one build; a later start does not rebuild; a signal to npm stops the server', { timeout: 600_000 }, async () => {
    // Force a stale build: the next start must build, once, for both.
    fs.rmSync(path.join(REPO_ROOT, 'dist', '.build-complete'), { force: true });
    const ports = [await freePort(), await freePort()];
    const starts = ports.map((port) =>
      run('npm', ['start'], { ...storeEnv(), FOLIO_PORT: String(port), FOLIO_DATA_DIR: tempDir(), FOLIO_ADMIN_TOKEN: ADMIN_TOKEN }),
    );
    try {
      await Promise.all(ports.map((port, i) => healthy(port, starts[i], 400)));
      // The server's build only: a fresh clone's first start also builds the console.
      const builds = starts.map((s) => s.output().match(/folio: building \(/g)?.length ?? 0);
      assert.deepEqual(builds.sort(), [0, 1], 'exactly one of the two built');
      // The signal goes to npm's own process, as a supervisor or a shell's `kill` would send it.
      process.kill(starts[0].pid, 'SIGTERM');
      process.kill(starts[1].pid, 'SIGINT');
      await Promise.all(starts.map((s) => s.exited));
      for (const port of ports) assert.equal(await answers(port), false, `the server on ${port} stopped with npm`);
    } finally {
      // On failure, leave no server behind.
      for (const s of starts) killGroup(s);
    }

    const port = await freePort();
    const again = run('npm', ['start'], { ...storeEnv(), FOLIO_PORT: String(port), FOLIO_DATA_DIR: tempDir(), FOLIO_ADMIN_TOKEN: ADMIN_TOKEN });
    try {
      await healthy(port, again, 120);
      assert.doesNotMatch(again.output(), /folio: building/);
      process.kill(again.pid, 'SIGTERM');
      await again.exited;
      assert.equal(await answers(port), false);
    } finally {
      killGroup(again);
    }
  });

  test('a start that cannot reach PostgreSQL names it (without the password) and still prints the token it generated; a later start says where it is', async () => {
    const dataDir = tempDir();
    const closed = await freePort();
    const url = `postgres://postgres:s3cret@127.0.0.1:${closed}/folio_nowhere`;
    const failed = run(process.execPath, [await compiledCli(), 'serve'], {
      FOLIO_PORT: String(await freePort()),
      FOLIO_DATA_DIR: dataDir,
      DATABASE_URL: url,
    });
    assert.equal(await failed.exited, 1);
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    assert.ok(failed.output().includes(token), `the generated token is printed:\n${failed.output()}`);
    assert.match(failed.output(), new RegExp(`folio: cannot connect to PostgreSQL at postgres://postgres@127\\.0\\.0\\.1:${closed}/folio_nowhere: `));
    assert.doesNotMatch(failed.output(), /s3cret|migration/);

    const later = await startChildServer({ dataDir, env: { FOLIO_ADMIN_TOKEN: '' } });
    try {
      assert.ok(later.stdout().includes(`Folio admin token: in ${path.join(dataDir, 'admin-token')}`), later.stdout());
      assert.ok(!later.stdout().includes(token), 'printed only once');
    } finally {
      later.process.kill('SIGTERM');
      await later.exited;
    }
  });

  test(
    'migrations that take over a second print progress',
    { skip: STORE === 'sqlite' ? 'SQLite: a held lock cannot delay migrations that have nothing to write; PostgreSQL covers the report' : false },
    async () => {
      // Migrated once; then another session holds the migrator's table, as a slow migration elsewhere would.
      await (await createStore({ databaseUrl: process.env.DATABASE_URL!, dataDir: tempDir() })).close();
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query('BEGIN');
      await client.query('LOCK TABLE kysely_migration IN ACCESS EXCLUSIVE MODE');
      const port = await freePort();
      const started = run(process.execPath, [await compiledCli(), 'serve'], {
        ...storeEnv(),
        FOLIO_PORT: String(port),
        FOLIO_DATA_DIR: tempDir(),
        FOLIO_ADMIN_TOKEN: ADMIN_TOKEN,
      });
      try {
        const deadline = Date.now() + 60_000;
        while (!started.output().includes('folio: migrating the store')) {
          assert.ok(Date.now() < deadline, started.output());
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await client.query('COMMIT');
        await client.end();
      }
      try {
        await healthy(port, started, 60);
        assert.match(started.output(), /folio: migrating the store, \d+ s so far\n/);
        assert.match(started.output(), /folio: migrations done in \d+ s\n/);
        process.kill(started.pid, 'SIGTERM');
        await started.exited;
      } finally {
        killGroup(started);
      }
    },
  );

  test('the start-up line says the rate limit in words and how to turn it off', async () => {
    for (const [limit, said] of [
      ['3', 'rate limit 3 requests/s per connection (bursts of 30); FOLIO_RATE_LIMIT=off turns it off'],
      ['off', 'rate limit off'],
    ]) {
      const server = await startChildServer({ env: { FOLIO_LOG_LEVEL: 'info', FOLIO_RATE_LIMIT: limit } });
      try {
        const started = server
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as { msg?: string })
          .find((line) => line.msg?.startsWith('folio listening'));
        assert.equal(started?.msg, `folio listening on ${server.url}; console at ${server.url}/console; ${said}`, server.stdout());
      } finally {
        server.process.kill('SIGTERM');
        await server.exited;
      }
    }
  });

  test('at info, a failed request logs its error code and message beside the status and request id', async () => {
    const server = await startChildServer({ env: { FOLIO_LOG_LEVEL: 'info' } });
    try {
      const res = await fetch(`${server.url}/v1/users/me`, { headers: { authorization: 'Bearer nope', 'Notion-Version': '2026-03-11' } });
      const body = (await res.json()) as { request_id: string; code: string; message: string };
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lines = server
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, any>);
      const line = lines.find((l) => l.reqId === body.request_id);
      assert.ok(line, server.stdout());
      assert.equal(line.res.statusCode, 401);
      assert.deepEqual(line.error, { code: body.code, message: body.message });
      const ok = await fetch(`${server.url}/healthz`);
      assert.equal(ok.status, 200);
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });
});

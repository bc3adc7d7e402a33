/**
 * Issue 29 item 2: `folio serve --processes 2` as an operator starts it, on the store the suite
 * runs on (a temp SQLite file, or DATABASE_URL). Two processes share the port (x-folio-pid tells
 * them apart), concurrent writes from many clients all succeed, a job enqueued through one process
 * is run by the other without waiting for a poll, a killed process is started again, and SIGTERM
 * to the primary stops every process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createStore, type Store } from '../../src/storage/createStore.js';
import { STORE } from '../helpers/server.js';
import { startChildServer, type ChildServer } from '../platform/childServer.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../src/config.js';

type Json = Record<string, any>;

const PAGES = 200;
const CLIENTS = 20;
const TASKS = 12;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  pid: string | undefined;
  body: Json;
}

/** One request; `agent: false` opens a connection of its own, which the cluster hands to either process. */
function send(url: string, method: string, path: string, options: { token?: string; body?: unknown; agent?: http.Agent | false } = {}): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}${path}`,
      {
        method,
        agent: options.agent ?? false,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}`, 'notion-version': LATEST_VERSION } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const pid = response.headers['x-folio-pid'];
          resolve({ status: response.statusCode ?? 0, pid: typeof pid === 'string' ? pid : undefined, body: text ? (JSON.parse(text) as Json) : {} });
        });
      },
    );
    request.on('error', reject);
    // A connection handed to a process as it is killed may never be answered.
    request.setTimeout(10_000, () => request.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    request.end(payload);
  });
}

async function admin(server: ChildServer, method: string, path: string, body?: unknown): Promise<Json> {
  const answer = await send(server.url, method, `/admin/v1${path}`, { token: server.adminToken, body });
  assert.equal(answer.status, 200, `admin ${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The pids answering, asked on fresh connections until `count` distinct ones have answered (or the deadline). */
async function pidsServing(url: string, count: number, deadlineMs = 45_000): Promise<Set<string>> {
  const seen = new Set<string>();
  const deadline = Date.now() + deadlineMs;
  while (seen.size < count && Date.now() < deadline) {
    try {
      const answer = await send(url, 'GET', '/healthz');
      if (answer.status === 200 && answer.pid) seen.add(answer.pid);
    } catch {
      // a process going away mid-request
    }
    if (seen.size < count) await sleep(20);
  }
  return seen;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe(`folio serve --processes 2 (${STORE})`, { timeout: 240_000 }, () => {
  let server: ChildServer;
  let store: Store;
  let token: string;
  let parentId: string;
  let pids: Set<string>;

  before(async () => {
    server = await startChildServer({
      args: ['--processes', '2'],
      // Three processes compile the sources under tsx on a loaded machine.
      readyMs: 90_000,
      // Idle workers look for jobs once in ten minutes: within this test only a wake-up finds one.
      env: { FOLIO_JOB_POLL_MS: '600000', FOLIO_ASYNC_TASK_WORKERS: '1' },
    });
    store = await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir: server.dataDir });
    const workspace = await admin(server, 'POST', '/workspaces', { name: 'processes' });
    const connection = await admin(server, 'POST', `/workspaces/${workspace.id}/connections`, {
      name: 'writer',
      kind: 'internal',
      capabilities: ['read_content', 'update_content', 'insert_content'],
    });
    token = connection.token;
    const parent = await admin(server, 'POST', `/workspaces/${workspace.id}/pages`, { title: 'parent' });
    await admin(server, 'POST', `/connections/${connection.id}/grants`, { object_id: parent.id });
    parentId = parent.id;
  });

  after(async () => {
    await store?.close();
    if (server && server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill('SIGKILL');
      await server.exited;
    }
  });

  test('two processes answer on the one port', async () => {
    pids = await pidsServing(server.url, 2);
    assert.equal(pids.size, 2, `two pids answered: ${[...pids].join(', ')}\n${server.stderr()}`);
    assert.ok(![...pids].includes(String(server.process.pid)), 'the primary serves nothing itself');
  });

  test(`${PAGES} page creations from ${CLIENTS} clients at once all succeed, in both processes`, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const statuses = new Map<number, number>();
    const answeredBy = new Set<string>();
    let next = 0;
    const client = async () => {
      while (next < PAGES) {
        const n = next++;
        const answer = await send(server.url, 'POST', '/v1/pages', {
          token,
          agent,
          body: { parent: { page_id: parentId }, properties: { title: { title: [{ text: { content: `page ${n}` } }] } } },
        });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.pid) answeredBy.add(answer.pid);
        if (answer.status !== 200) assert.fail(`page ${n}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: CLIENTS }, client));
    } finally {
      agent.destroy();
    }
    assert.deepEqual([...statuses], [[200, PAGES]]);
    assert.equal(answeredBy.size, 2, 'both processes wrote');
    const rows = await store.db.selectFrom('objects').select('id').where('parent_id', '=', parentId).execute();
    assert.equal(rows.length, PAGES);
    if (STORE === 'sqlite') {
      // Several processes on one file commit each write transaction as it ends: a group would hold
      // the file's write lock for a turn while the other process waits in SQLite's busy handler,
      // its event loop blocked (docs/decisions.md, "Group commit on SQLite").
      const text = await (await fetch(`${server.url}/metrics`)).text();
      const counter = (name: string) =>
        Number(
          text
            .split('\n')
            .find((l) => l.startsWith(`${name} `))
            ?.split(' ')[1],
        );
      assert.ok(counter('folio_store_write_transactions_total') > 0, text.slice(0, 200));
      assert.equal(counter('folio_store_group_commits_total'), counter('folio_store_write_transactions_total'));
    }
  });

  test('jobs enqueued through one process are run by the other at once, not at its next poll', async () => {
    // One kept-alive socket: every enqueue reaches the same process, whose one async-task slot
    // cannot take them all; the other process hears of them only through the wake-up.
    // Which process runs a task is a race (the enqueuer's own slot may keep up with a batch on a
    // loaded machine), so batches are sent until one ran elsewhere: each must end within 30 s,
    // which with a 10-minute poll only a wake-up does.
    const ranIn = new Set<string>();
    let enqueuer: string | undefined;
    for (let batch = 0; batch < 5 && ![...ranIn].some((pid) => pid !== enqueuer); batch++) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const started = Date.now();
      const tasks: string[] = [];
      let by: string | undefined;
      try {
        for (let i = 0; i < TASKS; i++) {
          const answer = await send(server.url, 'POST', '/v1/pages', {
            token,
            agent,
            body: { parent: { page_id: parentId }, properties: { title: { title: [{ text: { content: `async ${batch}.${i}` } }] } }, allow_async: true },
          });
          assert.equal(answer.status, 202, JSON.stringify(answer.body));
          by ??= answer.pid;
          assert.equal(answer.pid, by, 'one socket, one process');
          tasks.push(answer.body.id as string);
        }
      } finally {
        agent.destroy();
      }
      let jobs: { worker_id: string | null; state: string }[] = [];
      const deadline = Date.now() + 30_000;
      for (;;) {
        // This test's tasks only: on PostgreSQL the suite's files share one database.
        jobs = await store.db.selectFrom('jobs').select(['worker_id', 'state']).where('kind', '=', 'async_task').where('subject_id', 'in', tasks).execute();
        if (jobs.length === TASKS && jobs.every((job) => job.state === 'done')) break;
        assert.ok(Date.now() < deadline, `the tasks ended within 30 s (the poll is 10 minutes): ${JSON.stringify(jobs)}`);
        await sleep(100);
      }
      assert.ok(Date.now() - started < 30_000);
      ranIn.clear();
      for (const job of jobs) ranIn.add(job.worker_id!.split(':').at(-2)!);
      enqueuer = by;
    }
    assert.ok(
      [...ranIn].some((pid) => pid !== enqueuer),
      `some ran in the process that did not enqueue them (enqueued by ${enqueuer}, ran in ${[...ranIn].join(', ')})`,
    );
  });

  test('a killed process is started again; SIGTERM to the primary stops them all', async () => {
    const [victim, survivor] = [...pids].map(Number);
    process.kill(victim, 'SIGKILL');
    const deadline = Date.now() + 60_000;
    let replacement: number | undefined;
    while (replacement === undefined && Date.now() < deadline) {
      for (const pid of await pidsServing(server.url, 2, 2000)) if (Number(pid) !== victim && Number(pid) !== survivor) replacement = Number(pid);
    }
    assert.ok(replacement, `another process answered after ${victim} was killed\n${server.stderr()}`);
    assert.equal(alive(victim), false);

    server.process.kill('SIGTERM');
    assert.equal(await server.exited, 0, `${server.stdout()}\n${server.stderr()}`);
    assert.equal(alive(survivor), false, 'the surviving process ended');
    assert.equal(alive(replacement), false, 'the new process ended');
  });
});

test('FOLIO_PROCESSES: one by default, a number, or auto for one per core; anything else refused, naming it', () => {
  assert.equal(loadConfig({}).processes, 1);
  assert.equal(loadConfig({ FOLIO_PROCESSES: '3' }).processes, 3);
  assert.equal(loadConfig({ FOLIO_PROCESSES: 'auto' }).processes, availableParallelism());
  assert.throws(() => loadConfig({ FOLIO_PROCESSES: '0' }), /FOLIO_PROCESSES/);
  assert.throws(() => loadConfig({ FOLIO_PROCESSES: 'all' }), /FOLIO_PROCESSES/);
});

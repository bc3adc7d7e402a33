/**
 * The job contract (src/jobs/jobKind.ts): a kind defined here, unknown to src/worker/, runs on the
 * real store through claim, lease (kept by heartbeats, taken over when it runs out), retry,
 * completion and permanent failure.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { createCore, type Core } from '../../src/core.js';
import { PermanentJobError, type JobKind } from '../../src/jobs/jobKind.js';
import { startWorkers } from '../../src/worker/startWorkers.js';
import type { JobWorker } from '../../src/worker/jobWorker.js';
import { enqueueJob, findJob } from '../../src/storage/repositories/jobs.js';
import type { JobRow } from '../../src/storage/schema.js';

type Mode = 'ok' | 'flaky' | 'permanent' | 'always' | 'slow';
interface EchoPayload {
  mode: Mode;
}

/** A kind of its own name, so jobs other test files leave in a shared PostgreSQL are never claimed here. */
const KIND = `test_echo_${randomBytes(4).toString('hex')}`;
const runs: Array<{ id: string; attempt: number }> = [];
const failed = new Map<string, string>();
const written = new Set<string>();

const echoKind: JobKind<EchoPayload> = {
  name: KIND,
  slots: () => 2,
  handler: () => ({
    async run(job) {
      runs.push({ id: job.row.id, attempt: job.row.attempts });
      const { mode } = job.payload;
      if (mode === 'flaky' && job.row.attempts === 1) throw new Error('the first attempt fails');
      if (mode === 'always') throw new Error(`attempt ${job.row.attempts} fails`);
      if (mode === 'permanent') throw new PermanentJobError('nothing to retry');
      // Three leases long: only the heartbeat keeps the job this worker's.
      if (mode === 'slow') await sleep(3000, undefined, { signal: job.signal });
      await job.write(async () => void written.add(job.row.id), { progress: { step: 'written' }, finish: true });
    },
    async fail(_trx, row, reason) {
      failed.set(row.id, reason);
    },
  }),
};

let core: Core;
let worker: JobWorker | null;

before(async () => {
  core = await createCore(
    loadConfig({
      FOLIO_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'folio-job-kinds-')),
      FOLIO_LOG_LEVEL: 'silent',
      FOLIO_JOB_LEASE_SECONDS: '1',
      FOLIO_JOB_POLL_MS: '20',
      FOLIO_JOB_RETRY_MS: '20',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    }),
  );
  worker = await startWorkers(core, [echoKind]);
});

after(async () => {
  await worker?.stop();
  await core.close();
});

async function enqueue(mode: Mode, maxAttempts = 3, at = new Date()): Promise<string> {
  const id = core.newId();
  await enqueueJob(core.store.db, {
    id,
    kind: KIND,
    workspaceId: 'ws',
    subjectId: `subject-${id}`,
    payload: { mode },
    maxAttempts,
    at: at.toISOString(),
  });
  core.jobs.wake();
  return id;
}

async function ended(id: string, timeoutMs = 15_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await findJob(core.store.db, id);
    if (row && (row.state === 'done' || row.state === 'failed')) return row;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${row?.state}`);
    await sleep(20);
  }
}

const attemptsOf = (id: string) => runs.filter((r) => r.id === id).map((r) => r.attempt);

describe('a job kind the worker does not know', () => {
  test('started with its own slots; claimed, run and completed with its checkpoint', async () => {
    assert.ok(worker, 'the kind has slots, so a worker runs');
    const id = await enqueue('ok');
    const row = await ended(id);
    assert.equal(row.state, 'done');
    assert.equal(row.attempts, 1);
    assert.equal(row.worker_id, worker!.id);
    assert.equal(row.lease_until, null);
    assert.deepEqual(JSON.parse(row.progress), { step: 'written' });
    assert.ok(written.has(id));
  });

  test('a failed first attempt is retried after its backoff and the retry completes', async () => {
    const id = await enqueue('flaky');
    const row = await ended(id);
    assert.equal(row.state, 'done');
    assert.equal(row.attempts, 2);
    assert.match(row.last_error ?? '', /first attempt fails/);
    assert.deepEqual(attemptsOf(id), [1, 2]);
    assert.ok(!failed.has(id));
  });

  test('a permanent failure ends the job at once, through the kind’s fail hook', async () => {
    const id = await enqueue('permanent');
    const row = await ended(id);
    assert.equal(row.state, 'failed');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_error, 'nothing to retry');
    assert.equal(failed.get(id), 'nothing to retry');
  });

  test('a failure every time ends the job after its last attempt', async () => {
    const id = await enqueue('always', 2);
    const row = await ended(id);
    assert.equal(row.state, 'failed');
    assert.deepEqual(attemptsOf(id), [1, 2]);
    assert.match(failed.get(id) ?? '', /attempt 2 fails/);
  });

  test('the heartbeat keeps the lease of a job running longer than it', async () => {
    const id = await enqueue('slow');
    await sleep(500);
    const running = await findJob(core.store.db, id);
    assert.equal(running?.state, 'running');
    const row = await ended(id);
    assert.equal(row.state, 'done');
    assert.deepEqual(attemptsOf(id), [1], 'never taken over');
  });

  test('a running job whose lease ran out (its worker died) is taken over', async () => {
    const id = await enqueue('ok', 3, new Date(Date.now() + 3600_000));
    // As a dead worker leaves it: claimed, its lease passed (not due as queued, so no slot takes it first).
    await core.store.db
      .updateTable('jobs')
      .set({ state: 'running', worker_id: 'dead-worker', attempts: 1, lease_until: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const row = await ended(id);
    assert.equal(row.state, 'done');
    assert.equal(row.attempts, 2);
    assert.equal(row.worker_id, worker!.id);
  });
});

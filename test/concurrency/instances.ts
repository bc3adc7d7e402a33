/**
 * Two Folio processes on one store (issue 29 item 6): on PostgreSQL two instances on the suite's
 * database, on SQLite two `folio serve` processes given the same data directory, so both open the
 * same file. Separate processes, not two servers in this one: better-sqlite3 runs a statement
 * synchronously, so two servers in one process never write at the same time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../src/storage/createStore.js';
import { startChildServer, type ChildServer } from '../platform/childServer.js';
import { makeWorkspace, type Fixture } from '../helpers/factories.js';
import { lateBound } from '../helpers/lateBound.js';
import { call, type HttpResult } from '../helpers/http.js';
import type { TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

export interface Instances {
  /** The two instances, as the factories take a server. */
  servers: [TestServer, TestServer];
  fx: Fixture;
  /** Both processes' stderr, for failure messages (a 500 is logged there). */
  stderr(): string;
}

function asTestServer(child: ChildServer): TestServer {
  return {
    url: child.url,
    adminToken: child.adminToken,
    dataDir: child.dataDir,
    running: undefined as never,
    close: async () => {
      if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
      await child.exited;
    },
  };
}

/** Registers hooks that start two processes on one store and a workspace in it, and stop them after. */
export function useTwoInstances(env: Record<string, string> = {}): Instances {
  let children: ChildServer[] = [];
  let servers: [TestServer, TestServer] | undefined;
  let fx: Fixture | undefined;
  before(async () => {
    // Migrated here first, so the two can start side by side (half the wait on a loaded machine)
    // without racing to migrate: on SQLite the second would wait out the first's migrations on the
    // busy timeout, blocked. Side by side each takes longer, hence the longer deadline.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-concurrency-'));
    await (await createStore({ databaseUrl: process.env.DATABASE_URL ?? null, dataDir })).close();
    const start = () => startChildServer({ env, dataDir, readyMs: 90_000 });
    const [first, second] = await Promise.all([start(), start()]);
    children = [first, second];
    servers = [asTestServer(first), asTestServer(second)];
    fx = await makeWorkspace(servers[0]);
  });
  after(async () => {
    await Promise.all((servers ?? []).map((s) => s.close()));
  });
  return {
    servers: lateBound(() => servers, 'servers'),
    fx: lateBound(() => fx, 'fx'),
    stderr: () => children.map((c, i) => `--- instance ${i + 1} stderr:\n${c.stderr().slice(-4000)}`).join('\n'),
  };
}

/**
 * Runs `count` tasks with at most `width` at once, in `width` lanes: lane `l` runs tasks l,
 * l + width, l + 2·width… one after the other, so within a lane each task starts after the
 * previous one was answered (the order a test may expect to see kept).
 */
export async function inLanes<T>(count: number, width: number, task: (index: number, lane: number, step: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  await Promise.all(
    Array.from({ length: Math.min(width, count) }, async (_, lane) => {
      for (let index = lane, step = 0; index < count; index += width, step++) results[index] = await task(index, lane, step);
    }),
  );
  return results;
}

/**
 * A concurrent write's answer must be 200 (applied) or 409 conflict_error (not applied, safe to
 * retry): never a 500, and never the store's own busy error under another code.
 */
export function assertAppliedOrConflict(result: HttpResult<Json>, what: string, stderr: () => string): void {
  if (result.status === 200) return;
  assert.equal(result.status, 409, `${what}: ${result.status} ${JSON.stringify(result.body)}\n${stderr()}`);
  assert.equal(result.body.object, 'error');
  assert.equal(result.body.code, 'conflict_error', `${what}: ${JSON.stringify(result.body)}`);
}

/** A `/v1` call with the fixture's token. */
export function v1(server: TestServer, fx: Fixture, method: string, path: string, body?: unknown): Promise<HttpResult<Json>> {
  return call<Json>(server.url, method, path, { token: fx.token, body });
}

/** Writes per instance in each concurrent run, and how many each instance has in flight. */
export const PER_INSTANCE = 50;
export const WIDTH = 10;

/**
 * Both instances run `task` PER_INSTANCE times, WIDTH at a time, at once; answers by instance.
 * Says how long it took and how many were refused, as a diagnostic line of the test.
 */
export async function fromBoth<T extends { status: number }>(
  t: TestContext,
  task: (instance: number, lane: number, step: number, index: number) => Promise<T>,
): Promise<T[][]> {
  const started = Date.now();
  const answers = await Promise.all([0, 1].map((instance) => inLanes(PER_INSTANCE, WIDTH, (index, lane, step) => task(instance, lane, step, index))));
  const refused = answers.flat().filter((a) => a.status === 409).length;
  t.diagnostic(`${answers.flat().length} writes in ${Date.now() - started} ms, ${refused} answered 409`);
  return answers;
}

/**
 * The value each lane (of `onlyInstance`, or of both) wrote last among its applied writes: what a
 * field overwritten from several lanes must end at. A lane's earlier value showing means a later
 * write of that lane was lost or applied out of order.
 */
export function laneLasts(answers: { status: number; tag: string }[][], onlyInstance?: number): Set<string> {
  const last = new Map<string, string>();
  answers.forEach((perInstance, instance) =>
    perInstance.forEach((answer, index) => {
      if (answer.status === 200 && (onlyInstance === undefined || onlyInstance === instance)) last.set(`${instance}/${index % WIDTH}`, answer.tag);
    }),
  );
  return new Set(last.values());
}

/** A page icon, cover or callout icon naming a write (external images are stored as given). */
export const image = (kind: string, tag: string) => ({ type: 'external', external: { url: `https://example.com/${kind}/${tag}.png` } });
export const tagOf = (file: Json | null): string | null => (file ? /\/([^/]+)\.png$/.exec(file.external.url)![1] : null);

/**
 * Issue 3 acceptance: generated bodies. Valid page, block, database and data source bodies are
 * mutated by fast-check (a value replaced by one of another type, a key deleted, renamed or
 * added, a list grown past 100, a string past 2,000 characters, a `type` swapped) and sent over
 * HTTP, mostly at the newest version with a share at 2025-09-03 and 2022-06-28. Every answer must
 * be a success or a 4xx in the spec's error shape, never a 5xx; a validation_error must name the
 * field the mutation touched; the server must still answer at the end, and what was written must
 * read back.
 *
 * Eight lanes run at once, each with its own objects and its own fast-check run per route, so
 * the run is deterministic for a seed (printed; FUZZ_SEED overrides it). FUZZ_SCALE multiplies
 * the number of runs (1 → 10,400 sends). A failure is replayed from its fast-check path and
 * shrunk, and the minimal bodies are printed with the answers.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { useServer } from '../helpers/useServer.js';
import { STORE } from '../helpers/server.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { abbreviate, describeMutation, keyArb, mutate, mutationArb, weirdValue, type Mutation } from './mutations.js';
import { judge, type Answer, type Verdict } from './judge.js';
import { makeLane, ROUTES, type Lane, type RouteSpec, type Seed } from './seeds.js';

type Json = any;

const SEED = Number(process.env.FUZZ_SEED ?? 20260311);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const LANES = 8;
const MAX_REPLAYS = 8;
/** FUZZ_ROUTES="PATCH /v1/pages" runs only the routes whose name contains one of the comma-separated parts. */
const ONLY = process.env.FUZZ_ROUTES?.split(',').map((s) => s.trim());
const selected = (route: RouteSpec) => !ONLY || ONLY.some((part) => route.name.includes(part));

interface Case {
  version: string;
  seedIndex: number;
  mutations: Mutation[];
}

interface Outcome {
  seed: Seed;
  body: Json;
  sent: string;
  applied: Mutation[];
  answer: Answer;
  verdict: Verdict;
}

interface Problem {
  route: RouteSpec;
  lane: Lane;
  fcSeed: number;
  index: number;
  outcome: Outcome;
  version: string;
}

interface RouteStats {
  sends: number;
  statuses: Map<string, number>;
  branches: Map<string, number>;
  examples: string[];
  ms: number;
}

function fcSeed(routeIndex: number, lane: number): number {
  return (SEED + routeIndex * 1009 + lane * 7919) | 0;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

describe(`generated bodies (${STORE})`, () => {
  const { server, fx } = useServer({ env: process.env.FUZZ_LOG ? { FOLIO_LOG_LEVEL: process.env.FUZZ_LOG } : {} });
  const lanes: Lane[] = [];
  let setupSeconds = 0;

  before(async () => {
    const started = performance.now();
    const root = await makeSharedPage(server, fx, 'Fuzz root');
    lanes.push(...(await Promise.all(Array.from({ length: LANES }, (_, i) => makeLane(server, fx, root.id, i)))));
    setupSeconds = (performance.now() - started) / 1000;
  });

  /** The case arbitrary of one route in one lane: a version, one of its seeds, one to three mutations. */
  function caseArb(route: RouteSpec, lane: Lane): fc.Arbitrary<Case> {
    const values = weirdValue(lane.ids);
    const cache = new Map<string, fc.Arbitrary<Case>>();
    const version = fc.oneof(...route.versions.map(([v, weight]) => ({ weight, arbitrary: fc.constant(v) })));
    return version.chain((v) => {
      const seeds = route.seeds(lane, v);
      return fc.nat({ max: seeds.length - 1 }).chain((seedIndex) => {
        const key = `${v}|${seedIndex}`;
        let arb = cache.get(key);
        if (!arb) {
          arb = fc
            .array(mutationArb(seeds[seedIndex].body, values, keyArb(v === LATEST_VERSION)), { minLength: 1, maxLength: 3 })
            .map((mutations) => ({ version: v, seedIndex, mutations }));
          cache.set(key, arb);
        }
        return arb;
      });
    });
  }

  async function send(route: RouteSpec, lane: Lane, c: Case): Promise<Outcome> {
    const seed = route.seeds(lane, c.version)[c.seedIndex];
    const { body, applied } = mutate(seed.body, c.mutations);
    const sent = JSON.stringify(body) ?? 'null';
    const res = await call<Json>(server.url, route.method, seed.path, { token: fx.token, version: c.version, rawBody: sent });
    const answer = { status: res.status, body: res.body };
    const verdict = judge(answer, applied.length ? applied : c.mutations, Buffer.byteLength(sent));
    return { seed, body, sent, applied, answer, verdict };
  }

  test(`mutated page, block, database and data source bodies (seed ${SEED})`, { timeout: 900_000 }, async () => {
    console.log(`fuzz: seed ${SEED} (FUZZ_SEED to change), scale ${SCALE}, ${LANES} lanes, store ${STORE}`);
    const stats = new Map<string, RouteStats>(ROUTES.map((r) => [r.name, { sends: 0, statuses: new Map(), branches: new Map(), examples: [], ms: 0 }]));
    const problems: Problem[] = [];
    const created: { lane: number; object: string; id: string }[] = [];
    const crashes: string[] = [];

    const runLane = async (lane: Lane) => {
      for (const [routeIndex, route] of ROUTES.entries()) {
        if (!selected(route)) continue;
        const started = performance.now();
        const s = stats.get(route.name)!;
        const seed = fcSeed(routeIndex, lane.index);
        let index = 0;
        const details = await fc.check(
          fc.asyncProperty(caseArb(route, lane), async (c) => {
            const runIndex = index++;
            const outcome = await send(route, lane, c);
            s.sends++;
            const { status, body } = outcome.answer;
            count(s.statuses, status === 200 ? '200' : `${status} ${body?.code ?? '?'}`);
            if (outcome.verdict.ok) {
              if (outcome.verdict.branch) count(s.branches, outcome.verdict.branch);
              // Accepted, but worth a look: the message names another field under the same top-level key.
              if (outcome.verdict.branch === 'top' && s.examples.length < 3) {
                s.examples.push(`${outcome.applied.map(describeMutation).join('; ')} → ${String(body.message).slice(0, 200)}`);
              }
              if (status === 200 && route.method === 'POST' && typeof body?.id === 'string')
                created.push({ lane: lane.index, object: body.object, id: body.id });
            } else {
              problems.push({ route, lane, fcSeed: seed, index: runIndex, outcome, version: c.version });
            }
            return true;
          }),
          { seed, numRuns: Math.ceil((route.runs * SCALE) / LANES) },
        );
        // The property only throws when a request itself failed (the connection dropped, say).
        if (details.failed)
          crashes.push(`${route.name} lane ${lane.index} (fc seed ${seed}, path ${details.counterexamplePath}): ${String(details.errorInstance)}`);
        s.ms += performance.now() - started;
      }
    };
    const started = performance.now();
    await Promise.all(lanes.map(runLane));
    const seconds = (performance.now() - started) / 1000;

    // The server is alive, and everything the lanes wrote reads back.
    const health = await call(server.url, 'GET', '/healthz', { version: null });
    assert.equal(health.status, 200, 'the server answers /healthz after the run');
    const reads: [string, string][] = [];
    for (const lane of lanes) {
      reads.push(
        ['page', `/v1/pages/${lane.rowPage}`],
        ['page', `/v1/pages/${lane.holder}`],
        ['block', `/v1/blocks/${lane.holder}/children?page_size=100`],
        ['block', `/v1/blocks/${lane.toggle}/children`],
        ['database', `/v1/databases/${lane.schemaDb}`],
        ['data_source', `/v1/data_sources/${lane.schemaSource}`],
        ['data_source', `/v1/data_sources/${lane.rowsSource}`],
        ['database', `/v1/databases/${lane.multiDb}`],
        ...Object.values(lane.blocks).map((id): [string, string] => ['block', `/v1/blocks/${id}`]),
      );
    }
    const step = Math.max(1, Math.floor(created.length / 400));
    for (let i = 0; i < created.length; i += step) {
      const { object, id } = created[i];
      const kind = object === 'data_source' ? 'data_sources' : `${object}s`;
      reads.push([object, `/v1/${kind}/${id}`]);
      if (object === 'page') reads.push(['block', `/v1/blocks/${id}/children`]);
    }
    const unreadable: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (next < reads.length) {
          const [, path] = reads[next++];
          const res = await call<Json>(server.url, 'GET', path, { token: fx.token });
          if (res.status !== 200) unreadable.push(`GET ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }),
    );

    // Summary.
    let total = 0;
    const lines = [`fuzz: ${setupSeconds.toFixed(1)} s to set up ${LANES} lanes, ${seconds.toFixed(1)} s of sends; read back ${reads.length} objects`];
    for (const route of ROUTES) {
      const s = stats.get(route.name)!;
      total += s.sends;
      const hist = [...s.statuses.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      const branch = [...s.branches.entries()].map(([k, v]) => `${k} ${v}`).join(', ');
      lines.push(`  ${route.name.padEnd(30)} ${String(s.sends).padStart(5)} sends  [${hist}]  field named: ${branch || '-'}`);
      for (const example of s.examples) lines.push(`      names a neighbour: ${example}`);
    }
    lines.push(`  total ${total} sends, ${problems.length} problems, ${unreadable.length} unreadable`);
    console.log(lines.join('\n'));

    // Each kind of failure is replayed from its fast-check path and shrunk to a minimal body.
    const reports: string[] = [];
    const seen = new Set<string>();
    for (const p of problems) {
      const problem = (p.outcome.verdict as { problem: string }).problem;
      const signature = `${p.route.name}|${problem.replace(/body\S*/g, 'F')}|${p.outcome.answer.status}|${String(p.outcome.answer.body?.message ?? '')
        .replace(/`[^`]*`|"[^"]*"|body\S*/g, '…')
        .slice(0, 60)}`;
      if (seen.has(signature)) continue;
      seen.add(signature);
      if (reports.length >= MAX_REPLAYS) {
        reports.push(`… and more kinds of failure (${problems.length} failing sends in all)`);
        break;
      }
      let minimal = p.outcome;
      let shrinks = 0;
      const details = await fc.check(
        fc.asyncProperty(caseArb(p.route, p.lane), async (c) => {
          const outcome = await send(p.route, p.lane, c);
          if (outcome.verdict.ok) return true;
          minimal = outcome;
          return false;
        }),
        { seed: p.fcSeed, path: String(p.index), plugins: [fc.interruptAfterTimeLimit(20_000)] },
      );
      shrinks = details.numShrinks;
      const m = minimal;
      reports.push(
        [
          `${p.route.name} at ${p.version} (lane ${p.lane.index}, fc seed ${p.fcSeed}, path ${p.index}, ${shrinks} shrinks): ${(m.verdict as { problem?: string }).problem ?? problem}`,
          `  mutations: ${m.applied.map(describeMutation).join('; ')}`,
          `  ${p.route.method} ${m.seed.path} ${clip(JSON.stringify(abbreviate(m.body)), 1500)}`,
          `  → ${m.answer.status} ${clip(JSON.stringify(m.answer.body), 600)}`,
        ].join('\n'),
      );
    }
    if (reports.length) console.log(`fuzz: minimal counterexamples\n${reports.join('\n')}`);
    if (crashes.length) console.log(`fuzz: requests that failed outright\n${crashes.join('\n')}`);

    assert.deepEqual(crashes, [], 'every request got an answer');
    if (!ONLY) assert.ok(total >= 10_000 * Math.min(1, SCALE), `at least 10,000 sends (${total})`);
    assert.deepEqual(unreadable.slice(0, 10), [], `${unreadable.length} objects do not read back`);
    assert.equal(problems.length, 0, `${problems.length} answers break the contract; see the minimal counterexamples above`);
  });
});

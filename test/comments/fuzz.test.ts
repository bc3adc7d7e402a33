/**
 * Generated comment bodies, as test/fuzz/bodies.test.ts does for pages and blocks: valid create
 * and update bodies mutated by fast-check (a value of another type, a key deleted, renamed or
 * added, a list past 100, a string past 2,000 characters) and sent over HTTP. Every answer is a
 * success or a 4xx in the spec's error shape, never a 5xx, and a validation_error names the field
 * the mutation touched.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { useServer } from '../helpers/useServer.js';
import { makeSharedPage } from '../helpers/factories.js';
import { call } from '../helpers/http.js';
import { ok } from '../content/helpers.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { describeMutation, keyArb, mutate, mutationArb, touchedPaths, weirdValue, type Mutation } from '../fuzz/mutations.js';
import { judge } from '../fuzz/judge.js';
import { blobOf } from '../fileUploads/helpers.js';

type Json = any;

/**
 * The members of a pair of which exactly one is given: a message about the pair names both, one
 * first, and either may be the one a mutation deleted or added.
 */
const PAIRS = [
  ['parent', 'discussion_id'],
  ['rich_text', 'markdown'],
];

function namesItsPair(message: string, mutations: readonly Mutation[]): boolean {
  const tops = new Set(mutations.flatMap(touchedPaths).map((path) => String(path[0])));
  return PAIRS.some((pair) => pair.some((key) => tops.has(key)) && pair.every((key) => message.includes(`body.${key}`)));
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const RUNS = 250;

describe('generated comment bodies', () => {
  const { server, fx } = useServer();
  let pageId = '';
  let blockId = '';
  let discussionId = '';
  let commentId = '';
  let uploadId = '';

  before(async () => {
    pageId = (await makeSharedPage(server, fx, 'Fuzzed comments')).id;
    const appended = await ok(server, fx, 'PATCH', `/v1/blocks/${pageId}/children`, { children: [{ paragraph: { rich_text: [{ text: { content: 'p' } }] } }] });
    blockId = appended.results[0].id;
    const first = await ok(server, fx, 'POST', '/v1/comments', { parent: { page_id: pageId }, rich_text: [{ text: { content: 'seed' } }] });
    discussionId = first.discussion_id;
    commentId = first.id;
    uploadId = (await ok(server, fx, 'POST', '/v1/file_uploads', { filename: 'fuzz.txt' })).id;
    const form = new FormData();
    form.append('file', blobOf(Buffer.from('fuzz'), 'text/plain'), 'fuzz.txt');
    const sent = await fetch(`${server.url}/v1/file_uploads/${uploadId}/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.token}`, 'Notion-Version': LATEST_VERSION },
      body: form,
    });
    assert.equal(sent.status, 200);
  });

  const richText = (): Json[] => [
    { type: 'text', text: { content: 'Fuzz ', link: { url: 'https://example.com/x' } }, annotations: { bold: true, color: 'red_background' } },
    { type: 'mention', mention: { type: 'user', user: { object: 'user', id: fx.user.id } } },
    { type: 'mention', mention: { type: 'page', page: { id: pageId } } },
    { type: 'equation', equation: { expression: 'x^2' } },
  ];

  const seeds = (): Array<{ method: string; path: string; body: Json }> => [
    {
      method: 'POST',
      path: '/v1/comments',
      body: { parent: { type: 'page_id', page_id: pageId }, rich_text: richText(), display_name: { type: 'custom', custom: { name: 'Fuzzer' } } },
    },
    { method: 'POST', path: '/v1/comments', body: { parent: { block_id: blockId }, markdown: 'some **words**', display_name: { type: 'user' } } },
    { method: 'POST', path: '/v1/comments', body: { discussion_id: discussionId, rich_text: richText(), attachments: [{ file_upload_id: uploadId }] } },
    { method: 'PATCH', path: `/v1/comments/${commentId}`, body: { rich_text: richText() } },
  ];

  test(`mutated create and update bodies never answer 5xx, and name the field (seed ${SEED})`, { timeout: 300_000 }, async () => {
    const ids = [pageId, blockId, discussionId, commentId, uploadId, fx.user.id];
    const arb = fc
      .nat({ max: seeds().length - 1 })
      .chain((index) =>
        fc.array(mutationArb(seeds()[index].body, weirdValue(ids), keyArb(true)), { minLength: 1, maxLength: 3 }).map((mutations) => ({ index, mutations })),
      );
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(arb, async ({ index, mutations }) => {
        const seed = seeds()[index];
        const { body, applied } = mutate(seed.body, mutations);
        const sent = JSON.stringify(body) ?? 'null';
        const res = await call<Json>(server.url, seed.method, seed.path, { token: fx.token, version: LATEST_VERSION, rawBody: sent });
        const key = res.status === 200 ? '200' : `${res.status} ${res.body?.code}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const touched = applied.length ? applied : mutations;
        const verdict = judge({ status: res.status, body: res.body }, touched, Buffer.byteLength(sent));
        if (!verdict.ok && !namesItsPair(String(res.body?.message), touched) && problems.length < 10) {
          problems.push(
            `${seed.method} ${seed.path} ${applied.map(describeMutation).join('; ')}: ${verdict.problem} — ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
          );
        }
        return true;
      }),
      { seed: SEED, numRuns: RUNS },
    );
    console.log(`comment fuzz: ${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
    assert.deepEqual(problems, []);
    assert.ok((statuses.get('200') ?? 0) > 0, 'some mutated bodies are still valid, and were accepted');
    assert.equal((await call(server.url, 'GET', '/healthz', { version: null })).status, 200);
  });
});

/**
 * Issue 29 item 6: two processes on one store (two instances on one PostgreSQL, two `folio serve`
 * on one SQLite file) write one page's content at once: appends to its children, updates of one
 * block, a callout's text from one and its icon from the other. No update is lost silently: a
 * write answered 200 shows in the final state, after its sender's earlier ones; one answered 409
 * conflict_error does not; none is a 500 or the store's busy error. 50 writes per instance, 10 at
 * a time on each (docs/decisions.md "Concurrent writers").
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeSharedPage } from '../helpers/factories.js';
import { text } from '../content/helpers.js';
import { assertAppliedOrConflict, fromBoth, image, laneLasts, tagOf, useTwoInstances, v1 } from './instances.js';

type Json = Record<string, any>;

describe('two processes writing one page’s blocks at once', { timeout: 120_000 }, () => {
  const { servers, fx, stderr } = useTwoInstances();
  let root: Json;
  before(async () => {
    root = await makeSharedPage(servers[0], fx, 'Concurrent blocks');
  });

  test('appends to one page from both: every applied append is there once, whole, in its sender’s order', async (t) => {
    const page = await v1(servers[0], fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('appended') } } });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const tag = `${instance}.${lane}.${step}`;
      const result = await v1(servers[instance], fx, 'PATCH', `/v1/blocks/${page.body.id}/children`, {
        children: ['a', 'b'].map((half) => ({ paragraph: { rich_text: text(`${tag}.${half}`) } })),
      });
      assertAppliedOrConflict(result, `append on instance ${instance + 1}`, stderr);
      return { status: result.status, tag };
    });
    const applied = answers.flat().filter((a) => a.status === 200);
    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const listed = await v1(servers[1], fx, 'GET', `/v1/blocks/${page.body.id}/children?page_size=100${cursor ? `&start_cursor=${cursor}` : ''}`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      texts.push(...listed.body.results.map((b: Json) => b.paragraph.rich_text.map((t: Json) => t.plain_text).join('')));
      cursor = listed.body.has_more ? listed.body.next_cursor : null;
    } while (cursor);
    assert.equal(texts.length, 2 * applied.length, 'one pair of children per applied append');
    assert.equal(new Set(texts).size, texts.length, 'no child twice');
    const at = new Map(texts.map((t, i) => [t, i]));
    for (const answer of answers.flat()) {
      if (answer.status !== 200) {
        assert.ok(!at.has(`${answer.tag}.a`), `a refused append (${answer.tag}) left children`);
        continue;
      }
      // The two children of one request stay together, in the order given.
      assert.equal(at.get(`${answer.tag}.b`), at.get(`${answer.tag}.a`)! + 1, `${answer.tag}'s children are apart`);
    }
    // Within a lane each append was sent after the previous one was answered: it comes after it.
    const lanes = new Map<string, number[]>();
    for (const t of texts) {
      const [instance, lane, step, half] = t.split('.');
      if (half !== 'a') continue;
      const key = `${instance}.${lane}`;
      lanes.set(key, [...(lanes.get(key) ?? []), Number(step)]);
    }
    for (const [lane, steps] of lanes)
      assert.deepEqual(
        steps,
        [...steps].sort((x, y) => x - y),
        `lane ${lane} out of order`,
      );
  });

  test('updates of one block from both: it ends at a last applied write, and nothing fails', async (t) => {
    const appended = await v1(servers[0], fx, 'PATCH', `/v1/blocks/${root.id}/children`, { children: [{ paragraph: { rich_text: text('start') } }] });
    assert.equal(appended.status, 200, JSON.stringify(appended.body));
    const blockId = appended.body.results[0].id;
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const tag = `${instance}.${lane}.${step}`;
      const result = await v1(servers[instance], fx, 'PATCH', `/v1/blocks/${blockId}`, { paragraph: { rich_text: text(tag) } });
      assertAppliedOrConflict(result, `block update on instance ${instance + 1}`, stderr);
      return { status: result.status, tag };
    });
    assert.ok(
      answers.flat().some((a) => a.status === 200),
      'some updates were applied',
    );
    for (const server of servers) {
      const final = await v1(server, fx, 'GET', `/v1/blocks/${blockId}`);
      assert.equal(final.status, 200);
      const shown = final.body.paragraph.rich_text.map((t: Json) => t.plain_text).join('');
      assert.ok(laneLasts(answers).has(shown), `the block reads ${shown}, not the last applied write of any lane`);
    }
  });

  test('a callout’s text from one instance, its icon from the other: neither write undoes the other', async (t) => {
    const appended = await v1(servers[0], fx, 'PATCH', `/v1/blocks/${root.id}/children`, {
      children: [{ callout: { rich_text: text('start'), icon: image('icon', 'start') } }],
    });
    assert.equal(appended.status, 200, JSON.stringify(appended.body));
    const blockId = appended.body.results[0].id;
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const tag = `${instance}.${lane}.${step}`;
      const member = instance === 0 ? { rich_text: text(tag) } : { icon: image('icon', tag) };
      const result = await v1(servers[instance], fx, 'PATCH', `/v1/blocks/${blockId}`, { callout: member });
      assertAppliedOrConflict(result, `callout update on instance ${instance + 1}`, stderr);
      return { status: result.status, tag };
    });
    for (const server of servers) {
      const final = (await v1(server, fx, 'GET', `/v1/blocks/${blockId}`)).body;
      const shown = final.callout.rich_text.map((t: Json) => t.plain_text).join('');
      assert.ok(laneLasts(answers, 0).has(shown), `the text is ${shown}, not the last applied write of a lane`);
      assert.ok(laneLasts(answers, 1).has(tagOf(final.callout.icon)!), `the icon is ${tagOf(final.callout.icon)}, not the last applied write of a lane`);
    }
  });
});

/**
 * Issue 29 item 6: two processes on one store (two instances on one PostgreSQL, two `folio serve`
 * on one SQLite file) write the same page, its children and one block at once. No update is lost
 * silently: every write is answered 200 and shows in the final state, in the order its sender
 * sent it, or 409 conflict_error and does not show; never a 500, never the store's busy error.
 * Each run: 50 writes per instance, 10 at a time on each (docs/decisions.md "Concurrent writers").
 */
import { before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { makeSharedPage } from '../helpers/factories.js';
import { text } from '../content/helpers.js';
import { assertAppliedOrConflict, inLanes, useTwoInstances, v1 } from './instances.js';

type Json = Record<string, any>;

const PER_INSTANCE = 50;
const WIDTH = 10;

describe('two processes writing one page at once', { timeout: 120_000 }, () => {
  const { servers, fx, stderr } = useTwoInstances();
  let root: Json;
  let rows: string;
  let numbered: string;
  before(async () => {
    root = await makeSharedPage(servers[0], fx, 'Concurrency');
    const database = async (title: string, properties: Json) => {
      const made = await v1(servers[0], fx, 'POST', '/v1/databases', { parent: { page_id: root.id }, title: text(title), initial_data_source: { properties } });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      return made.body.data_sources[0].id as string;
    };
    // One number property per lane of each instance, and one property every request writes.
    const properties: Json = { Name: { title: {} }, Same: { rich_text: {} } };
    for (let lane = 0; lane < 2 * WIDTH; lane++) properties[`L${lane}`] = { number: {} };
    rows = await database('Rows', properties);
    numbered = await database('Numbered', { Name: { title: {} }, ID: { unique_id: { prefix: 'C' } } });
  });

  /** Both instances run `task` PER_INSTANCE times, WIDTH at a time, at once; answers by instance. */
  const fromBoth = async <T extends { status: number }>(
    t: TestContext,
    task: (instance: number, lane: number, step: number, index: number) => Promise<T>,
  ): Promise<T[][]> => {
    const started = Date.now();
    const answers = await Promise.all([0, 1].map((instance) => inLanes(PER_INSTANCE, WIDTH, (index, lane, step) => task(instance, lane, step, index))));
    const refused = answers.flat().filter((a) => a.status === 409).length;
    t.diagnostic(`${answers.flat().length} writes in ${Date.now() - started} ms, ${refused} answered 409`);
    return answers;
  };

  /**
   * A value each lane wrote last among its applied writes: the final value of a property both
   * instances overwrite must be one of these (a lane's earlier value showing means a later write of
   * the same lane was lost or applied out of order).
   */
  const laneLasts = (answers: { status: number; tag: string }[][], onlyInstance?: number) => {
    const last = new Map<string, string>();
    answers.forEach((perInstance, instance) =>
      perInstance.forEach((answer, index) => {
        if (answer.status === 200 && (onlyInstance === undefined || onlyInstance === instance)) last.set(`${instance}/${index % WIDTH}`, answer.tag);
      }),
    );
    return new Set(last.values());
  };

  /** A page icon, cover or callout icon naming a write (external images are stored as given). */
  const image = (kind: string, tag: string) => ({ type: 'external', external: { url: `https://example.com/${kind}/${tag}.png` } });
  const tagOf = (file: Json | null) => (file ? /\/([^/]+)\.png$/.exec(file.external.url)![1] : null);

  test('property updates: every lane’s own property ends at its last applied write, and so does the shared one', async (t) => {
    const created = await v1(servers[0], fx, 'POST', '/v1/pages', { parent: { data_source_id: rows }, properties: { Name: { title: text('target') } } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const pageId = created.body.id;
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const property = `L${instance * WIDTH + lane}`;
      const tag = `${instance}.${lane}.${step}`;
      // Each request sets its lane's property, which no other lane sets, and the one every request sets.
      const result = await v1(servers[instance], fx, 'PATCH', `/v1/pages/${pageId}`, {
        properties: { [property]: { number: step + 1 }, Same: { rich_text: text(tag) } },
      });
      assertAppliedOrConflict(result, `PATCH ${property} on instance ${instance + 1}`, stderr);
      return { status: result.status, tag, property, value: step + 1 };
    });
    assert.ok(answers.flat().some((a) => a.status === 200), 'some updates were applied');
    const expected = new Map<string, number | null>();
    for (const answer of answers.flat()) {
      if (!expected.has(answer.property)) expected.set(answer.property, null);
      if (answer.status === 200) expected.set(answer.property, Math.max(answer.value, expected.get(answer.property) ?? 0));
    }
    for (const server of servers) {
      const final = await v1(server, fx, 'GET', `/v1/pages/${pageId}`);
      assert.equal(final.status, 200);
      for (const [property, value] of expected) assert.equal(final.body.properties[property].number, value, `${property}: its lane's last applied write`);
      const same = final.body.properties.Same.rich_text.map((t: Json) => t.plain_text).join('');
      assert.ok(laneLasts(answers).has(same), `Same is ${same}, not the last applied write of any lane`);
    }
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
    for (const [lane, steps] of lanes) assert.deepEqual(steps, [...steps].sort((x, y) => x - y), `lane ${lane} out of order`);
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
    assert.ok(answers.flat().some((a) => a.status === 200), 'some updates were applied');
    for (const server of servers) {
      const final = await v1(server, fx, 'GET', `/v1/blocks/${blockId}`);
      assert.equal(final.status, 200);
      const shown = final.body.paragraph.rich_text.map((t: Json) => t.plain_text).join('');
      assert.ok(laneLasts(answers).has(shown), `the block reads ${shown}, not the last applied write of any lane`);
    }
  });

  test('icon from one instance, cover from the other: neither write undoes the other', async (t) => {
    const page = await v1(servers[0], fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('dressed') } } });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    // Instance 1 sets only the icon and instance 2 only the cover: an update that writes back the
    // other member as it read it would put back a value its own lane had already replaced.
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const tag = `${instance}.${lane}.${step}`;
      const result = await v1(servers[instance], fx, 'PATCH', `/v1/pages/${page.body.id}`, instance === 0 ? { icon: image('icon', tag) } : { cover: image('cover', tag) });
      assertAppliedOrConflict(result, `icon/cover on instance ${instance + 1}`, stderr);
      return { status: result.status, tag };
    });
    for (const server of servers) {
      const final = (await v1(server, fx, 'GET', `/v1/pages/${page.body.id}`)).body;
      assert.ok(laneLasts(answers, 0).has(tagOf(final.icon)!), `the icon is ${tagOf(final.icon)}, not the last applied write of a lane`);
      assert.ok(laneLasts(answers, 1).has(tagOf(final.cover)!), `the cover is ${tagOf(final.cover)}, not the last applied write of a lane`);
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

  test('rows created at once through both get unique ids that never repeat and grow per sender', async (t) => {
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const result = await v1(servers[instance], fx, 'POST', '/v1/pages', {
        parent: { data_source_id: numbered },
        properties: { Name: { title: text(`row ${instance}.${lane}.${step}`) } },
      });
      assertAppliedOrConflict(result, `create on instance ${instance + 1}`, stderr);
      return { status: result.status, key: `${instance}.${lane}`, number: result.status === 200 ? (result.body.properties.ID.unique_id.number as number) : null };
    });
    const applied = answers.flat().filter((a) => a.status === 200);
    const numbers = applied.map((a) => a.number!);
    assert.equal(new Set(numbers).size, numbers.length, `a unique id repeated: ${numbers.sort((x, y) => x - y)}`);
    assert.ok(numbers.every((n) => Number.isInteger(n) && n >= 1));
    // Gaps are allowed (a refused create may have taken a number); going back is not.
    const byLane = new Map<string, number[]>();
    for (const a of applied) byLane.set(a.key, [...(byLane.get(a.key) ?? []), a.number!]);
    for (const [lane, seq] of byLane) assert.deepEqual(seq, [...seq].sort((x, y) => x - y), `lane ${lane}'s ids go back`);
    // Read back through a query: the stored ids are the answered ones.
    const stored: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await v1(servers[1], fx, 'POST', `/v1/data_sources/${numbered}/query`, {
        page_size: 100,
        filter: { property: 'Name', title: { starts_with: 'row ' } },
        ...(cursor ? { start_cursor: cursor } : {}),
      });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      stored.push(...page.body.results.map((r: Json) => r.properties.ID.unique_id.number as number));
      cursor = page.body.has_more ? page.body.next_cursor : undefined;
    } while (cursor);
    assert.deepEqual(
      stored.sort((x, y) => x - y),
      numbers.sort((x, y) => x - y),
    );
  });
});

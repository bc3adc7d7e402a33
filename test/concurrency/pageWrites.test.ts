/**
 * Issue 29 item 6: two processes on one store (two instances on one PostgreSQL, two `folio serve`
 * on one SQLite file) write the same page at once: its properties (each lane its own, and one
 * every request sets), its icon beside its cover, and new rows of one data source with a unique id.
 * No update is lost silently: a write answered 200 shows in the final state, after its sender's
 * earlier ones; one answered 409 conflict_error does not; none is a 500 or the store's busy error.
 * 50 writes per instance, 10 at a time on each (docs/decisions.md "Concurrent writers").
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeSharedPage } from '../helpers/factories.js';
import { text } from '../content/helpers.js';
import { assertAppliedOrConflict, fromBoth, image, laneLasts, tagOf, useTwoInstances, v1, WIDTH } from './instances.js';

type Json = Record<string, any>;

describe('two processes writing one page at once', { timeout: 120_000 }, () => {
  const { servers, fx, stderr } = useTwoInstances();
  let root: Json;
  let rows: string;
  let numbered: string;
  before(async () => {
    root = await makeSharedPage(servers[0], fx, 'Concurrent pages');
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
    assert.ok(
      answers.flat().some((a) => a.status === 200),
      'some updates were applied',
    );
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

  test('icon from one instance, cover from the other: neither write undoes the other', async (t) => {
    const page = await v1(servers[0], fx, 'POST', '/v1/pages', { parent: { page_id: root.id }, properties: { title: { title: text('dressed') } } });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    // Instance 1 sets only the icon and instance 2 only the cover: an update that writes back the
    // other member as it read it would put back a value its own lane had already replaced.
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const tag = `${instance}.${lane}.${step}`;
      const result = await v1(
        servers[instance],
        fx,
        'PATCH',
        `/v1/pages/${page.body.id}`,
        instance === 0 ? { icon: image('icon', tag) } : { cover: image('cover', tag) },
      );
      assertAppliedOrConflict(result, `icon/cover on instance ${instance + 1}`, stderr);
      return { status: result.status, tag };
    });
    for (const server of servers) {
      const final = (await v1(server, fx, 'GET', `/v1/pages/${page.body.id}`)).body;
      assert.ok(laneLasts(answers, 0).has(tagOf(final.icon)!), `the icon is ${tagOf(final.icon)}, not the last applied write of a lane`);
      assert.ok(laneLasts(answers, 1).has(tagOf(final.cover)!), `the cover is ${tagOf(final.cover)}, not the last applied write of a lane`);
    }
  });

  test('rows created at once through both get unique ids that never repeat and grow per sender', async (t) => {
    const answers = await fromBoth(t, async (instance, lane, step) => {
      const result = await v1(servers[instance], fx, 'POST', '/v1/pages', {
        parent: { data_source_id: numbered },
        properties: { Name: { title: text(`row ${instance}.${lane}.${step}`) } },
      });
      assertAppliedOrConflict(result, `create on instance ${instance + 1}`, stderr);
      return {
        status: result.status,
        key: `${instance}.${lane}`,
        number: result.status === 200 ? (result.body.properties.ID.unique_id.number as number) : null,
      };
    });
    const applied = answers.flat().filter((a) => a.status === 200);
    const numbers = applied.map((a) => a.number!);
    assert.equal(new Set(numbers).size, numbers.length, `a unique id repeated: ${numbers.sort((x, y) => x - y)}`);
    assert.ok(numbers.every((n) => Number.isInteger(n) && n >= 1));
    // Gaps are allowed (a refused create may have taken a number); going back is not.
    const byLane = new Map<string, number[]>();
    for (const a of applied) byLane.set(a.key, [...(byLane.get(a.key) ?? []), a.number!]);
    for (const [lane, seq] of byLane)
      assert.deepEqual(
        seq,
        [...seq].sort((x, y) => x - y),
        `lane ${lane}'s ids go back`,
      );
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

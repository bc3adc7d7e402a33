/**
 * Issue 12: every type key and operator of the spec's filter table ("Filter object"), as
 * docs/decisions.md "Queries (issue 12)" fixes their meaning. One small data source per family of
 * types, built over HTTP with a handful of labelled pages; each row of a table is one filter and
 * the exact set of pages it must return. The server runs on the test clock (NOW, a Sunday), so
 * relative dates, windows and verification expiry are fixed. SQLite, or PostgreSQL with DATABASE_URL.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useServer } from '../helpers/useServer.js';
import { addConnection, admin, makeSharedPage } from '../helpers/factories.js';
import {
  createPage,
  createSource,
  expectError,
  expectValidation,
  Labels,
  NOW,
  ok,
  query,
  queryAll,
  setClock,
  TEST_CLOCK_ENV,
  text,
  updatePage,
  type Json,
  type Source,
} from './helpers.js';

/** Resolves a name a row needs at run time: `#Prop` is that property's id, anything else a label or user. */
type Ref = (name: string) => string;

interface Row {
  name: string;
  filter: Json | ((ref: Ref) => Json);
  expect: readonly string[];
}

const row = (filter: Json, expect: readonly string[]): Row => ({ name: JSON.stringify(filter), filter, expect });
const rowWith = (name: string, filter: (ref: Ref) => Json, expect: readonly string[]): Row => ({ name, filter, expect });

describe('query filters: every condition of the spec table', () => {
  const { server, fx } = useServer({ env: TEST_CLOCK_ENV });
  let root: Json;
  before(async () => {
    await setClock(server, NOW);
    root = await makeSharedPage(server, fx);
  });

  /** A family: its data source, its labelled pages, and the names its rows refer to. */
  class Family {
    source!: Source;
    readonly labels = new Labels();
    readonly refs = new Map<string, string>();

    ref: Ref = (name) => {
      if (name.startsWith('#')) {
        const property = this.source.properties[name.slice(1)];
        assert.ok(property, `no property ${name.slice(1)}`);
        return property.id as string;
      }
      return this.refs.get(name) ?? this.labels.id(name);
    };

    async make(title: string, properties: Json): Promise<void> {
      this.source = await createSource(server, fx.token, root.id, title, properties);
    }

    async page(label: string, properties: Json, token = fx.token): Promise<Json> {
      const page = await createPage(server, token, this.source.id, { Name: { title: text(label) }, ...properties });
      this.labels.add(label, page.id);
      return page;
    }

    async matches(filter?: Json, token = fx.token): Promise<string[]> {
      return this.labels.of(await queryAll(server, token, this.source.id, filter ? { filter } : {})).sort();
    }

    /** One test per row: the filter returns exactly the expected pages. */
    table(rows: readonly Row[], token: () => string = () => fx.token): void {
      for (const r of rows) {
        test(r.name, async () => {
          const filter = typeof r.filter === 'function' ? r.filter(this.ref) : r.filter;
          assert.deepEqual(await this.matches(filter, token()), [...r.expect].sort(), JSON.stringify(filter));
        });
      }
    }
  }

  describe('checkbox, number, unique_id, files', () => {
    const f = new Family();
    const ALL = ['n1', 'n2', 'n3', 'n4', 'n5'];
    before(async () => {
      await f.make('Numbers', {
        Name: { title: {} },
        Count: { number: {} },
        Done: { checkbox: {} },
        Ref: { unique_id: { prefix: 'N' } },
        Attach: { files: {} },
      });
      const file = { files: [{ name: 'a.pdf', external: { url: 'https://example.com/a.pdf' } }] };
      await f.page('n1', { Count: { number: 1 }, Done: { checkbox: true }, Attach: file });
      await f.page('n2', { Count: { number: 2.5 }, Done: { checkbox: false } });
      await f.page('n3', { Count: { number: -3 }, Attach: file });
      await f.page('n4', { Count: { number: 0 }, Done: { checkbox: true } });
      const n5 = await f.page('n5', {});
      // The unique ids count pages in creation order; the rows below rely on it.
      assert.deepEqual(n5.properties.Ref.unique_id, { prefix: 'N', number: 5 });
    });
    f.table([
      row({ property: 'Done', checkbox: { equals: true } }, ['n1', 'n4']),
      row({ property: 'Done', checkbox: { equals: false } }, ['n2', 'n3', 'n5']),
      row({ property: 'Done', checkbox: { does_not_equal: true } }, ['n2', 'n3', 'n5']),
      row({ property: 'Done', checkbox: { does_not_equal: false } }, ['n1', 'n4']),
      row({ property: 'Count', number: { equals: 2.5 } }, ['n2']),
      row({ property: 'Count', number: { equals: 0 } }, ['n4']),
      row({ property: 'Count', number: { does_not_equal: 1 } }, ['n2', 'n3', 'n4', 'n5']),
      row({ property: 'Count', number: { greater_than: 0 } }, ['n1', 'n2']),
      row({ property: 'Count', number: { greater_than_or_equal_to: 1 } }, ['n1', 'n2']),
      row({ property: 'Count', number: { less_than: 0 } }, ['n3']),
      row({ property: 'Count', number: { less_than_or_equal_to: 0 } }, ['n3', 'n4']),
      row({ property: 'Count', number: { is_empty: true } }, ['n5']),
      row({ property: 'Count', number: { is_not_empty: true } }, ['n1', 'n2', 'n3', 'n4']),
      row({ property: 'Ref', unique_id: { equals: 3 } }, ['n3']),
      row({ property: 'Ref', unique_id: { does_not_equal: 3 } }, ['n1', 'n2', 'n4', 'n5']),
      row({ property: 'Ref', unique_id: { greater_than: 3 } }, ['n4', 'n5']),
      row({ property: 'Ref', unique_id: { greater_than_or_equal_to: 3 } }, ['n3', 'n4', 'n5']),
      row({ property: 'Ref', unique_id: { less_than: 2 } }, ['n1']),
      row({ property: 'Ref', unique_id: { less_than_or_equal_to: 2 } }, ['n1', 'n2']),
      row({ property: 'Attach', files: { is_empty: true } }, ['n2', 'n4', 'n5']),
      row({ property: 'Attach', files: { is_not_empty: true } }, ['n1', 'n3']),
      // The property by its id, for every key above alike.
      rowWith('Count by id: greater_than 0', (ref) => ({ property: ref('#Count'), number: { greater_than: 0 } }), ['n1', 'n2']),
      rowWith('Done by id: equals true', (ref) => ({ property: ref('#Done'), checkbox: { equals: true } }), ['n1', 'n4']),
      rowWith('title by id: is_not_empty', (ref) => ({ property: ref('#Name'), title: { is_not_empty: true } }), ALL),
      // Compound filters, and one level of nesting inside them.
      row(
        {
          and: [
            { property: 'Count', number: { greater_than: 0 } },
            { property: 'Done', checkbox: { equals: true } },
          ],
        },
        ['n1'],
      ),
      row(
        {
          or: [
            { property: 'Count', number: { less_than: 0 } },
            { property: 'Done', checkbox: { equals: true } },
          ],
        },
        ['n1', 'n3', 'n4'],
      ),
      row(
        {
          and: [
            {
              or: [
                { property: 'Count', number: { equals: 1 } },
                { property: 'Count', number: { equals: -3 } },
              ],
            },
            { property: 'Attach', files: { is_not_empty: true } },
          ],
        },
        ['n1', 'n3'],
      ),
      row(
        {
          or: [
            {
              and: [
                { property: 'Count', number: { greater_than: 0 } },
                { property: 'Done', checkbox: { equals: false } },
              ],
            },
            { property: 'Ref', unique_id: { equals: 5 } },
          ],
        },
        ['n2', 'n5'],
      ),
      row({ and: [{ property: 'Count', number: { is_empty: true } }, { or: [{ property: 'Done', checkbox: { equals: true } }] }] }, []),
    ]);

    test('no filter: every page that is not in the trash', async () => {
      assert.deepEqual(await f.matches(), ALL);
    });
  });

  describe('rich_text, title, url, email, phone_number: case-insensitive, NFC, every script', () => {
    const f = new Family();
    const ALL = ['t1', 't2', 't3', 't4', 't5'];
    before(async () => {
      await f.make('Texts', { Name: { title: {} }, Notes: { rich_text: {} }, Site: { url: {} }, Mail: { email: {} }, Phone: { phone_number: {} } });
      const page = async (label: string, name: string, properties: Json) => {
        const made = await createPage(server, fx.token, f.source.id, { Name: { title: name ? text(name) : [] }, ...properties });
        f.labels.add(label, made.id);
      };
      await page('t1', 'Éclair au café', {
        Notes: { rich_text: text('Crème brûlée') },
        Site: { url: 'https://example.com/Café' },
        Mail: { email: 'Ada@Example.COM' },
        Phone: { phone_number: '+1 555 0100' },
      });
      await page('t2', 'éclair', {
        Notes: { rich_text: text('STRASSE') },
        Site: { url: 'https://EXAMPLE.org/x' },
        Mail: { email: 'bob@example.org' },
        Phone: { phone_number: '+44 20 7946 0958' },
      });
      await page('t3', 'Straße', { Notes: { rich_text: text('İstanbul') } });
      await page('t4', '', {});
      await page('t5', '50% off_now', { Notes: { rich_text: text('back\\slash') } });
    });
    f.table([
      // title: folding is toLowerCase() after NFC, on both sides.
      row({ property: 'Name', title: { equals: 'éclair' } }, ['t2']),
      row({ property: 'Name', title: { equals: 'ÉCLAIR' } }, ['t2']),
      row({ property: 'Name', title: { equals: 'E\u0301clair' } }, ['t2']),
      row({ property: 'Name', title: { does_not_equal: 'éclair' } }, ['t1', 't3', 't4', 't5']),
      row({ property: 'Name', title: { starts_with: 'éclair' } }, ['t1', 't2']),
      row({ property: 'Name', title: { ends_with: 'CAFÉ' } }, ['t1']),
      row({ property: 'Name', title: { contains: 'CLAIR' } }, ['t1', 't2']),
      row({ property: 'Name', title: { does_not_contain: 'éclair' } }, ['t3', 't4', 't5']),
      row({ property: 'Name', title: { contains: 'straße' } }, ['t3']),
      row({ property: 'Name', title: { contains: 'STRASSE' } }, []),
      row({ property: 'Name', title: { is_empty: true } }, ['t4']),
      row({ property: 'Name', title: { is_not_empty: true } }, ['t1', 't2', 't3', 't5']),
      // The empty value is the empty string.
      row({ property: 'Name', title: { equals: '' } }, ['t4']),
      row({ property: 'Name', title: { contains: '' } }, ALL),
      row({ property: 'Name', title: { does_not_contain: '' } }, []),
      // LIKE wildcards in a value are plain characters.
      row({ property: 'Name', title: { contains: '%' } }, ['t5']),
      row({ property: 'Name', title: { contains: '_' } }, ['t5']),
      row({ property: 'Name', title: { starts_with: '%' } }, []),
      row({ property: 'Name', title: { ends_with: '_' } }, []),
      row({ property: 'Name', title: { contains: '0% o' } }, ['t5']),
      // rich_text: ß is not "ss" and İ folds to i + U+0307, exactly as JavaScript folds them.
      row({ property: 'Notes', rich_text: { equals: 'strasse' } }, ['t2']),
      row({ property: 'Notes', rich_text: { equals: 'STRASSE' } }, ['t2']),
      row({ property: 'Notes', rich_text: { contains: 'straße' } }, []),
      row({ property: 'Notes', rich_text: { does_not_equal: 'strasse' } }, ['t1', 't3', 't4', 't5']),
      row({ property: 'Notes', rich_text: { contains: 'CRÈME' } }, ['t1']),
      row({ property: 'Notes', rich_text: { equals: 'istanbul' } }, []),
      row({ property: 'Notes', rich_text: { equals: 'İSTANBUL' } }, ['t3']),
      row({ property: 'Notes', rich_text: { equals: 'i\u0307stanbul' } }, ['t3']),
      row({ property: 'Notes', rich_text: { contains: 'stanbul' } }, ['t3']),
      row({ property: 'Notes', rich_text: { starts_with: 'i' } }, ['t3']),
      row({ property: 'Notes', rich_text: { contains: '\\' } }, ['t5']),
      row({ property: 'Notes', rich_text: { ends_with: 'SLASH' } }, ['t5']),
      row({ property: 'Notes', rich_text: { does_not_contain: 'e' } }, ['t3', 't4', 't5']),
      row({ property: 'Notes', rich_text: { is_empty: true } }, ['t4']),
      row({ property: 'Notes', rich_text: { is_not_empty: true } }, ['t1', 't2', 't3', 't5']),
      row({ property: 'Site', url: { contains: 'example.org' } }, ['t2']),
      row({ property: 'Site', url: { starts_with: 'HTTPS://EXAMPLE.COM' } }, ['t1']),
      row({ property: 'Site', url: { ends_with: 'café' } }, ['t1']),
      row({ property: 'Site', url: { equals: 'https://example.org/X' } }, ['t2']),
      row({ property: 'Site', url: { does_not_contain: 'example' } }, ['t3', 't4', 't5']),
      row({ property: 'Site', url: { is_empty: true } }, ['t3', 't4', 't5']),
      row({ property: 'Mail', email: { equals: 'ada@example.com' } }, ['t1']),
      row({ property: 'Mail', email: { ends_with: '@EXAMPLE.ORG' } }, ['t2']),
      row({ property: 'Mail', email: { does_not_equal: 'ada@example.com' } }, ['t2', 't3', 't4', 't5']),
      row({ property: 'Mail', email: { is_not_empty: true } }, ['t1', 't2']),
      row({ property: 'Phone', phone_number: { starts_with: '+44' } }, ['t2']),
      row({ property: 'Phone', phone_number: { contains: '555' } }, ['t1']),
      row({ property: 'Phone', phone_number: { equals: '+1 555 0100' } }, ['t1']),
      row({ property: 'Phone', phone_number: { does_not_contain: '555' } }, ['t2', 't3', 't4', 't5']),
      row({ property: 'Phone', phone_number: { is_empty: true } }, ['t3', 't4', 't5']),
      row({ property: 'Phone', phone_number: { is_not_empty: true } }, ['t1', 't2']),
      // Any text key fits any text property.
      row({ property: 'Mail', rich_text: { contains: 'ADA' } }, ['t1']),
      row({ property: 'Name', rich_text: { equals: 'straße' } }, ['t3']),
      row({ property: 'Notes', title: { starts_with: 'crème' } }, ['t1']),
      row({ property: 'Site', phone_number: { is_empty: true } }, ['t3', 't4', 't5']),
    ]);
  });

  describe('select, multi_select, status: option names exactly, arrays, status groups', () => {
    const f = new Family();
    before(async () => {
      await f.make('Options', {
        Name: { title: {} },
        Kind: { select: { options: [{ name: 'Apple' }, { name: 'Banana' }, { name: 'Cherry' }] } },
        Tags: { multi_select: { options: [{ name: 'x' }, { name: 'y' }, { name: 'z' }] } },
        Stage: {
          status: {
            options: [
              { name: 'Backlog', group: 'To-do' },
              // An option named like a group: `equals: "Complete"` means this option, not the group.
              { name: 'Complete', group: 'To-do' },
              { name: 'Doing', group: 'In progress' },
              { name: 'Done', group: 'Complete' },
              { name: 'Shipped', group: 'Complete' },
            ],
          },
        },
      });
      await f.page('o1', {
        Kind: { select: { name: 'Apple' } },
        Tags: { multi_select: [{ name: 'x' }, { name: 'y' }] },
        Stage: { status: { name: 'Backlog' } },
      });
      await f.page('o2', { Kind: { select: { name: 'Banana' } }, Tags: { multi_select: [{ name: 'y' }] }, Stage: { status: { name: 'Doing' } } });
      await f.page('o3', { Kind: { select: { name: 'Cherry' } }, Tags: { multi_select: [{ name: 'z' }] }, Stage: { status: { name: 'Done' } } });
      await f.page('o4', { Stage: { status: null } });
      await f.page('o5', { Kind: { select: { name: 'Apple' } }, Tags: { multi_select: [{ name: 'x' }] }, Stage: { status: { name: 'Complete' } } });
      await f.page('o6', { Stage: { status: { name: 'Shipped' } } });
    });
    f.table([
      row({ property: 'Kind', select: { equals: 'Apple' } }, ['o1', 'o5']),
      row({ property: 'Kind', select: { equals: 'apple' } }, []),
      row({ property: 'Kind', select: { equals: ['Banana', 'Cherry'] } }, ['o2', 'o3']),
      row({ property: 'Kind', select: { does_not_equal: 'Apple' } }, ['o2', 'o3', 'o4', 'o6']),
      row({ property: 'Kind', select: { does_not_equal: ['Apple', 'Banana'] } }, ['o3', 'o4', 'o6']),
      row({ property: 'Kind', select: { is_empty: true } }, ['o4', 'o6']),
      row({ property: 'Kind', select: { is_not_empty: true } }, ['o1', 'o2', 'o3', 'o5']),
      row({ property: 'Tags', multi_select: { contains: 'y' } }, ['o1', 'o2']),
      row({ property: 'Tags', multi_select: { contains: 'Y' } }, []),
      row({ property: 'Tags', multi_select: { contains: ['x', 'z'] } }, ['o1', 'o3', 'o5']),
      row({ property: 'Tags', multi_select: { does_not_contain: 'x' } }, ['o2', 'o3', 'o4', 'o6']),
      row({ property: 'Tags', multi_select: { does_not_contain: ['x', 'z'] } }, ['o2', 'o4', 'o6']),
      row({ property: 'Tags', multi_select: { is_empty: true } }, ['o4', 'o6']),
      row({ property: 'Tags', multi_select: { is_not_empty: true } }, ['o1', 'o2', 'o3', 'o5']),
      row({ property: 'Stage', status: { equals: 'Doing' } }, ['o2']),
      row({ property: 'Stage', status: { equals: 'doing' } }, []),
      row({ property: 'Stage', status: { equals: ['Backlog', 'Done'] } }, ['o1', 'o3']),
      row({ property: 'Stage', status: { equals: 'To-do' } }, ['o1', 'o5']),
      row({ property: 'Stage', status: { equals: 'In progress' } }, ['o2']),
      row({ property: 'Stage', status: { equals: 'Complete' } }, ['o5']),
      row({ property: 'Stage', status: { equals: ['In progress', 'Shipped'] } }, ['o2', 'o6']),
      row({ property: 'Stage', status: { does_not_equal: 'Doing' } }, ['o1', 'o3', 'o4', 'o5', 'o6']),
      row({ property: 'Stage', status: { does_not_equal: ['Backlog', 'Done'] } }, ['o2', 'o4', 'o5', 'o6']),
      row({ property: 'Stage', status: { is_empty: true } }, ['o4']),
      row({ property: 'Stage', status: { is_not_empty: true } }, ['o1', 'o2', 'o3', 'o5', 'o6']),
    ]);
  });

  /*
   * NOW is Sunday 2024-03-31 10:00 UTC. Days are UTC days; a date without time is that whole day
   * as an operand and its midnight as a value. The windows at NOW:
   *   past_week [03-24, 04-01)  past_month [02-29, 04-01)  past_year [2023-03-31, 04-01)
   *   next_week [03-31, 04-08)  next_month [03-31, 05-01)  next_year [03-31, 2025-04-01)
   *   this_week [03-25 (Monday), 04-01)
   * and the relative values: yesterday 03-30, today 03-31, tomorrow 04-01, one_week_ago 03-24,
   * one_week_from_now 04-07, one_month_ago 02-29 (31 February clamped), one_month_from_now 04-30.
   */
  describe('date: comparisons, relative values, windows', () => {
    const f = new Family();
    const VALUES: Array<[string, Json | null]> = [
      ['y2023b', { start: '2023-03-30T23:59:59.000Z' }],
      ['y2023', { start: '2023-03-31' }],
      ['feb28', { start: '2024-02-28' }],
      ['feb29', { start: '2024-02-29' }],
      ['range', { start: '2024-03-20', end: '2024-03-26' }],
      ['mar23', { start: '2024-03-23T23:59:59.999Z' }],
      ['mar24', { start: '2024-03-24' }],
      ['mon25', { start: '2024-03-25T09:30:00.000Z' }],
      ['sat30', { start: '2024-03-30' }],
      ['now', { start: NOW }],
      ['late31', { start: '2024-03-31T23:59:59.999Z' }],
      ['apr1', { start: '2024-04-01' }],
      ['apr7', { start: '2024-04-07' }],
      ['apr8', { start: '2024-04-08' }],
      ['apr30', { start: '2024-04-30' }],
      ['may1', { start: '2024-05-01' }],
      ['y2025', { start: '2025-03-31' }],
      ['y2025b', { start: '2025-04-01' }],
      ['empty', null],
    ];
    const BEFORE_TODAY = ['y2023b', 'y2023', 'feb28', 'feb29', 'range', 'mar23', 'mar24', 'mon25', 'sat30'];
    const TODAY = ['now', 'late31'];
    const AFTER_TODAY = ['apr1', 'apr7', 'apr8', 'apr30', 'may1', 'y2025', 'y2025b'];
    before(async () => {
      await f.make('Dates', { Name: { title: {} }, When: { date: {} } });
      for (const [label, date] of VALUES) await f.page(label, date ? { When: { date } } : {});
    });
    const when = (condition: Json) => ({ property: 'When', date: condition });
    f.table([
      // A date without time: the whole UTC day; a value with a range is on every day it covers.
      row(when({ equals: '2024-03-31' }), TODAY),
      row(when({ equals: '2024-03-25' }), ['mon25', 'range']),
      row(when({ equals: '2024-03-26' }), ['range']),
      row(when({ equals: '2024-03-27' }), []),
      // A date-time: that instant, to the millisecond.
      row(when({ equals: '2024-03-31T10:00:00Z' }), ['now']),
      row(when({ equals: '2024-03-31T10:00:00.001Z' }), []),
      row(when({ equals: '2024-03-31T19:00:00+09:00' }), ['now']),
      row(when({ before: '2024-03-24' }), ['y2023b', 'y2023', 'feb28', 'feb29', 'range', 'mar23']),
      row(when({ before: '2024-03-31T10:00:00Z' }), BEFORE_TODAY),
      row(when({ after: '2024-03-31' }), AFTER_TODAY),
      row(when({ after: '2024-03-31T10:00:00Z' }), ['late31', ...AFTER_TODAY]),
      row(when({ after: '2024-03-21' }), ['range', 'mar23', 'mar24', 'mon25', 'sat30', ...TODAY, ...AFTER_TODAY]),
      row(when({ on_or_before: '2024-03-24' }), ['y2023b', 'y2023', 'feb28', 'feb29', 'range', 'mar23', 'mar24']),
      row(when({ on_or_before: '2024-03-31T10:00:00Z' }), [...BEFORE_TODAY, 'now']),
      row(when({ on_or_after: '2024-03-25' }), ['range', 'mon25', 'sat30', ...TODAY, ...AFTER_TODAY]),
      row(when({ on_or_after: '2024-03-31T10:00:00Z' }), [...TODAY, ...AFTER_TODAY]),
      row(when({ is_empty: true }), ['empty']),
      row(
        when({ is_not_empty: true }),
        VALUES.map(([label]) => label).filter((l) => l !== 'empty'),
      ),
      // Relative values, resolved from the server's clock.
      row(when({ equals: 'today' }), TODAY),
      row(when({ equals: 'yesterday' }), ['sat30']),
      row(when({ equals: 'tomorrow' }), ['apr1']),
      row(when({ equals: 'one_week_ago' }), ['mar24', 'range']),
      row(when({ equals: 'one_week_from_now' }), ['apr7']),
      row(when({ equals: 'one_month_ago' }), ['feb29']),
      row(when({ equals: 'one_month_from_now' }), ['apr30']),
      row(when({ before: 'today' }), BEFORE_TODAY),
      row(when({ after: 'yesterday' }), [...TODAY, ...AFTER_TODAY]),
      row(when({ on_or_after: 'tomorrow' }), AFTER_TODAY),
      row(when({ on_or_before: 'one_week_ago' }), ['y2023b', 'y2023', 'feb28', 'feb29', 'range', 'mar23', 'mar24']),
      row(when({ before: 'one_month_ago' }), ['y2023b', 'y2023', 'feb28']),
      row(when({ after: 'one_month_from_now' }), ['may1', 'y2025', 'y2025b']),
      // Windows: a value matches when it overlaps the window.
      row(when({ past_week: {} }), ['range', 'mar24', 'mon25', 'sat30', ...TODAY]),
      row(when({ past_month: {} }), ['feb29', 'range', 'mar23', 'mar24', 'mon25', 'sat30', ...TODAY]),
      row(when({ past_year: {} }), ['y2023', 'feb28', 'feb29', 'range', 'mar23', 'mar24', 'mon25', 'sat30', ...TODAY]),
      row(when({ next_week: {} }), [...TODAY, 'apr1', 'apr7']),
      row(when({ next_month: {} }), [...TODAY, 'apr1', 'apr7', 'apr8', 'apr30']),
      row(when({ next_year: {} }), [...TODAY, 'apr1', 'apr7', 'apr8', 'apr30', 'may1', 'y2025']),
      row(when({ this_week: {} }), ['range', 'mon25', 'sat30', ...TODAY]),
    ]);
  });

  /*
   * A date without time is midnight in its time zone when it has one: 1 April in Tokyo begins at
   * 15:00 on 31 March UTC, 30 March in New York (UTC−4 then) at 04:00 on 30 March. A date-time
   * without offset is read in the zone too.
   */
  describe('date: values with a time zone', () => {
    const f = new Family();
    before(async () => {
      await f.make('Zoned dates', { Name: { title: {} }, When: { date: {} } });
      await f.page('tokyo', { When: { date: { start: '2024-04-01', time_zone: 'Asia/Tokyo' } } });
      await f.page('newYork', { When: { date: { start: '2024-03-30', time_zone: 'America/New_York' } } });
      await f.page('utc', { When: { date: { start: '2024-04-01' } } });
      await f.page('tokyoNine', { When: { date: { start: '2024-04-01T09:00:00', time_zone: 'Asia/Tokyo' } } });
    });
    const when = (condition: Json) => ({ property: 'When', date: condition });
    f.table([
      row(when({ equals: '2024-03-31' }), ['tokyo']),
      row(when({ equals: '2024-03-30' }), ['newYork']),
      row(when({ equals: '2024-04-01' }), ['utc', 'tokyoNine']),
      row(when({ equals: '2024-03-31T15:00:00Z' }), ['tokyo']),
      row(when({ before: '2024-03-31T15:00:00Z' }), ['newYork']),
      row(when({ on_or_before: '2024-03-31T15:00:00Z' }), ['newYork', 'tokyo']),
      row(when({ equals: 'today' }), ['tokyo']),
      row(when({ equals: 'tomorrow' }), ['utc', 'tokyoNine']),
      row(when({ this_week: {} }), ['newYork', 'tokyo']),
      row(when({ next_week: {} }), ['tokyo', 'utc', 'tokyoNine']),
    ]);
  });

  describe('created_time and last_edited_time: as properties and as the timestamp filter', () => {
    const f = new Family();
    before(async () => {
      await f.make('Stamps', { Name: { title: {} }, Made: { created_time: {} }, Changed: { last_edited_time: {} } });
      await setClock(server, '2024-03-20T08:00:00.000Z');
      await f.page('c1', {});
      await setClock(server, '2024-03-30T12:00:00.000Z');
      await f.page('c2', {});
      await setClock(server, '2024-03-31T09:00:00.000Z');
      await f.page('c3', {});
      await setClock(server, NOW);
      await updatePage(server, fx.token, f.labels.id('c1'), { properties: { Name: { title: text('c1 edited') } } });
    });
    f.table([
      row({ property: 'Made', date: { equals: '2024-03-30' } }, ['c2']),
      row({ property: 'Made', created_time: { before: '2024-03-30' } }, ['c1']),
      row({ property: 'Made', date: { on_or_after: '2024-03-30T12:00:00Z' } }, ['c2', 'c3']),
      row({ property: 'Made', date: { this_week: {} } }, ['c2', 'c3']),
      row({ property: 'Made', created_time: { past_week: {} } }, ['c2', 'c3']),
      row({ property: 'Made', date: { is_empty: true } }, []),
      row({ property: 'Changed', last_edited_time: { equals: 'today' } }, ['c1', 'c3']),
      row({ property: 'Changed', date: { after: '2024-03-31T09:30:00Z' } }, ['c1']),
      row({ property: 'Changed', date: { past_week: {} } }, ['c1', 'c2', 'c3']),
      row({ property: 'Changed', last_edited_time: { is_not_empty: true } }, ['c1', 'c2', 'c3']),
      row({ timestamp: 'created_time', created_time: { before: '2024-03-31' } }, ['c1', 'c2']),
      row({ timestamp: 'created_time', created_time: { equals: 'yesterday' } }, ['c2']),
      row({ timestamp: 'created_time', created_time: { past_month: {} } }, ['c1', 'c2', 'c3']),
      row({ timestamp: 'created_time', created_time: { is_empty: true } }, []),
      row({ timestamp: 'last_edited_time', last_edited_time: { after: '2024-03-31T09:30:00Z' } }, ['c1']),
      row({ timestamp: 'last_edited_time', last_edited_time: { on_or_before: '2024-03-31T09:30:00Z' } }, ['c2', 'c3']),
      row(
        {
          or: [
            { timestamp: 'created_time', created_time: { equals: '2024-03-20' } },
            { property: 'Changed', date: { equals: '2024-03-30' } },
          ],
        },
        ['c1', 'c2'],
      ),
    ]);

    test('`property` beside `timestamp` is a validation error', async () => {
      const res = await query(server, fx.token, f.source.id, { filter: { timestamp: 'created_time', property: 'Made', created_time: { equals: 'today' } } });
      expectValidation(res, /body\.filter\.(property|timestamp)/);
    });
  });

  describe('formula: string, number, checkbox, date by the result type', () => {
    const f = new Family();
    before(async () => {
      await f.make('Formulas', {
        Name: { title: {} },
        N: { number: {} },
        Due: { date: {} },
        Words: { rich_text: {} },
        Shout: { formula: { expression: 'upper(prop("Words"))' } },
        Double: { formula: { expression: 'prop("N") * 2' } },
        Big: { formula: { expression: 'prop("N") > 1' } },
        Next: { formula: { expression: 'dateAdd(prop("Due"), 1, "days")' } },
        Stamp: { formula: { expression: 'now()' } },
      });
      await f.page('f1', { N: { number: 1 }, Due: { date: { start: '2024-03-30' } }, Words: { rich_text: text('Crème') } });
      await f.page('f2', { N: { number: 2 }, Due: { date: { start: '2024-04-01T08:00:00Z' } }, Words: { rich_text: text('brûlée') } });
      await f.page('f3', { N: { number: 5 } });
      const f4 = await f.page('f4', {});
      // What the rows below take for the results of the formulas on empty inputs.
      assert.equal(f4.properties.Double.formula.number, null);
      assert.equal(f4.properties.Big.formula.boolean, false);
      assert.equal(f4.properties.Next.formula.date, null);
      assert.ok(!f4.properties.Shout.formula.string);
    });
    f.table([
      row({ property: 'Shout', formula: { string: { equals: 'CRÈME' } } }, ['f1']),
      row({ property: 'Shout', formula: { string: { contains: 'rème' } } }, ['f1']),
      row({ property: 'Shout', formula: { string: { equals: 'brûlée' } } }, ['f2']),
      row({ property: 'Shout', formula: { string: { starts_with: 'B' } } }, ['f2']),
      row({ property: 'Shout', formula: { string: { ends_with: 'éE' } } }, ['f2']),
      row({ property: 'Shout', formula: { string: { does_not_contain: 'crème' } } }, ['f2', 'f3', 'f4']),
      row({ property: 'Shout', formula: { string: { does_not_equal: 'crème' } } }, ['f2', 'f3', 'f4']),
      row({ property: 'Shout', formula: { string: { is_empty: true } } }, ['f3', 'f4']),
      row({ property: 'Shout', formula: { string: { is_not_empty: true } } }, ['f1', 'f2']),
      row({ property: 'Double', formula: { number: { equals: 4 } } }, ['f2']),
      row({ property: 'Double', formula: { number: { greater_than: 2 } } }, ['f2', 'f3']),
      row({ property: 'Double', formula: { number: { less_than_or_equal_to: 2 } } }, ['f1']),
      row({ property: 'Double', formula: { number: { does_not_equal: 2 } } }, ['f2', 'f3', 'f4']),
      row({ property: 'Double', formula: { number: { is_empty: true } } }, ['f4']),
      row({ property: 'Big', formula: { checkbox: { equals: true } } }, ['f2', 'f3']),
      row({ property: 'Big', formula: { checkbox: { equals: false } } }, ['f1', 'f4']),
      row({ property: 'Big', formula: { checkbox: { does_not_equal: true } } }, ['f1', 'f4']),
      row({ property: 'Next', formula: { date: { equals: '2024-03-31' } } }, ['f1']),
      row({ property: 'Next', formula: { date: { after: '2024-03-31' } } }, ['f2']),
      row({ property: 'Next', formula: { date: { on_or_before: 'today' } } }, ['f1']),
      row({ property: 'Next', formula: { date: { next_week: {} } } }, ['f1', 'f2']),
      row({ property: 'Next', formula: { date: { past_week: {} } } }, ['f1']),
      row({ property: 'Next', formula: { date: { is_empty: true } } }, ['f3', 'f4']),
      row({ property: 'Stamp', formula: { date: { equals: 'today' } } }, ['f1', 'f2', 'f3', 'f4']),
    ]);

    test('a formula reading now() is recomputed at query time, from the clock', async () => {
      try {
        await setClock(server, '2024-05-10T06:00:00.000Z');
        assert.deepEqual(await f.matches({ property: 'Stamp', formula: { date: { equals: '2024-05-10' } } }), ['f1', 'f2', 'f3', 'f4']);
        assert.deepEqual(await f.matches({ property: 'Stamp', formula: { date: { equals: '2024-03-31' } } }), []);
      } finally {
        await setClock(server, NOW);
      }
    });
  });

  describe('people, created_by, last_edited_by, and `me` by connection kind', () => {
    const f = new Family();
    let publicToken: string;
    let internalToken: string;
    before(async () => {
      const bob = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name: 'Bob', email: 'bob@example.com' });
      const capabilities = ['read_content', 'update_content', 'insert_content'];
      const publicConnection = await addConnection(server, fx.workspaceId, capabilities, 'public', bob.id);
      const internalConnection = await addConnection(server, fx.workspaceId, capabilities, 'internal');
      for (const connection of [publicConnection, internalConnection]) {
        await admin(server, 'POST', `/connections/${connection.id}/grants`, { object_id: root.id });
      }
      publicToken = publicConnection.token;
      internalToken = internalConnection.token;
      f.refs.set('ada', fx.user.id);
      f.refs.set('bob', bob.id);
      f.refs.set('fxBot', fx.connection.bot_id);
      f.refs.set('publicBot', publicConnection.bot_id);
      f.refs.set('internalBot', internalConnection.bot_id);

      await f.make('People', { Name: { title: {} }, Owners: { people: {} }, Creator: { created_by: {} }, Editor: { last_edited_by: {} } });
      const person = (id: string) => ({ object: 'user', id });
      await f.page('p1', { Owners: { people: [person(fx.user.id)] } });
      await f.page('p2', { Owners: { people: [person(bob.id)] } });
      await f.page('p3', { Owners: { people: [person(fx.user.id), person(bob.id)] } }, internalToken);
      await f.page('p4', {});
      await updatePage(server, publicToken, f.labels.id('p4'), { properties: { Name: { title: text('p4 edited') } } });
    });
    const ALL = ['p1', 'p2', 'p3', 'p4'];

    describe('a personal connection: `me` is its user', () => {
      f.table([
        rowWith('people contains ada', (ref) => ({ property: 'Owners', people: { contains: ref('ada') } }), ['p1', 'p3']),
        rowWith('people contains bob', (ref) => ({ property: 'Owners', people: { contains: ref('bob') } }), ['p2', 'p3']),
        rowWith('people does_not_contain ada', (ref) => ({ property: 'Owners', people: { does_not_contain: ref('ada') } }), ['p2', 'p4']),
        row({ property: 'Owners', people: { contains: 'me' } }, ['p1', 'p3']),
        row({ property: 'Owners', people: { does_not_contain: 'me' } }, ['p2', 'p4']),
        row({ property: 'Owners', people: { is_empty: true } }, ['p4']),
        row({ property: 'Owners', people: { is_not_empty: true } }, ['p1', 'p2', 'p3']),
        rowWith('created_by contains the connection bot', (ref) => ({ property: 'Creator', created_by: { contains: ref('fxBot') } }), ['p1', 'p2', 'p4']),
        rowWith('created_by (key people) contains the internal bot', (ref) => ({ property: 'Creator', people: { contains: ref('internalBot') } }), ['p3']),
        rowWith('created_by does_not_contain the connection bot', (ref) => ({ property: 'Creator', created_by: { does_not_contain: ref('fxBot') } }), ['p3']),
        // Every page was made by a bot, never by the person `me` names.
        row({ property: 'Creator', created_by: { contains: 'me' } }, []),
        row({ property: 'Creator', created_by: { does_not_contain: 'me' } }, ALL),
        row({ property: 'Creator', created_by: { is_empty: true } }, []),
        row({ property: 'Creator', created_by: { is_not_empty: true } }, ALL),
        rowWith('last_edited_by contains the public bot', (ref) => ({ property: 'Editor', last_edited_by: { contains: ref('publicBot') } }), ['p4']),
        rowWith(
          'last_edited_by (key people) does_not_contain the public bot',
          (ref) => ({ property: 'Editor', people: { does_not_contain: ref('publicBot') } }),
          ['p1', 'p2', 'p3'],
        ),
        row({ property: 'Editor', last_edited_by: { contains: 'me' } }, []),
      ]);
    });

    describe('a public connection: `me` is the user who authorised it', () => {
      f.table(
        [row({ property: 'Owners', people: { contains: 'me' } }, ['p2', 'p3']), row({ property: 'Owners', people: { does_not_contain: 'me' } }, ['p1', 'p4'])],
        () => publicToken,
      );
    });

    describe('an internal connection: `me` is nobody', () => {
      f.table(
        [
          row({ property: 'Owners', people: { contains: 'me' } }, []),
          row({ property: 'Owners', people: { does_not_contain: 'me' } }, ALL),
          row({ property: 'Creator', created_by: { does_not_contain: 'me' } }, ALL),
          row({ property: 'Editor', last_edited_by: { contains: 'me' } }, []),
        ],
        () => internalToken,
      );
    });
  });

  /*
   * Tasks k1..k4; k3 goes to the trash after the projects relate to it, and then counts nowhere.
   * Projects as the relation shows them afterwards: P1 [k1, k2], P2 [] (had k3), P3 [],
   * P4 [k2, k4] (had k3), P5 [k1].
   *   k1: Points 1, Done ✓, Due 03-01, Tag a, Label alpha
   *   k2: Points 5, Done ✗, Due 04-15, Tag b, Label Beta
   *   k3: Points 8, Done ✓, Due 05-20, Tag a, Label gamma (in the trash)
   *   k4: Points 2, Done ✓, no Due,   Tag b, Label delta
   */
  describe('relation and rollup: any, every, none, number, date; pages in the trash count nowhere', () => {
    const tasks = new Family();
    const f = new Family();
    before(async () => {
      await tasks.make('Tasks', {
        Name: { title: {} },
        Points: { number: {} },
        Done: { checkbox: {} },
        Due: { date: {} },
        Tag: { select: { options: [{ name: 'a' }, { name: 'b' }] } },
        Label: { rich_text: {} },
      });
      const task = (label: string, points: number, done: boolean, due: string | null, tag: string, words: string) =>
        tasks.page(label, {
          Points: { number: points },
          Done: { checkbox: done },
          ...(due ? { Due: { date: { start: due } } } : {}),
          Tag: { select: { name: tag } },
          Label: { rich_text: text(words) },
        });
      await task('k1', 1, true, '2024-03-01', 'a', 'alpha');
      await task('k2', 5, false, '2024-04-15', 'b', 'Beta');
      await task('k3', 8, true, '2024-05-20', 'a', 'gamma');
      await task('k4', 2, true, null, 'b', 'delta');
      for (const label of tasks.labels.all()) f.refs.set(label, tasks.labels.id(label));

      const rollup = (property: string, fn: string) => ({ rollup: { relation_property_name: 'Tasks', rollup_property_name: property, function: fn } });
      await f.make('Projects', {
        Name: { title: {} },
        Tasks: { relation: { data_source_id: tasks.source.id, single_property: {} } },
        Total: rollup('Points', 'sum'),
        Latest: rollup('Due', 'latest_date'),
        AllPoints: rollup('Points', 'show_original'),
        AllDone: rollup('Done', 'show_original'),
        AllDue: rollup('Due', 'show_original'),
        AllTags: rollup('Tag', 'show_original'),
        AllLabels: rollup('Label', 'show_original'),
      });
      const related = (...labels: string[]) => ({ Tasks: { relation: labels.map((l) => ({ id: tasks.labels.id(l) })) } });
      await f.page('P1', related('k1', 'k2'));
      await f.page('P2', related('k3'));
      await f.page('P3', {});
      await f.page('P4', related('k2', 'k3', 'k4'));
      await f.page('P5', related('k1'));
      await updatePage(server, fx.token, tasks.labels.id('k3'), { in_trash: true });

      // The stored rollups the `number` and `date` rows read, as the pages show them.
      const shown = async (label: string) => (await ok(server, fx.token, 'GET', `/v1/pages/${f.labels.id(label)}`)).properties;
      assert.deepEqual((await shown('P2')).Tasks.relation, []);
      assert.equal((await shown('P2')).Total.rollup.number, null);
      assert.equal((await shown('P4')).Total.rollup.number, 7);
      assert.equal((await shown('P4')).Latest.rollup.date.start, '2024-04-15');
    });
    f.table([
      rowWith('relation contains k1', (ref) => ({ property: 'Tasks', relation: { contains: ref('k1') } }), ['P1', 'P5']),
      rowWith('relation contains k3, in the trash', (ref) => ({ property: 'Tasks', relation: { contains: ref('k3') } }), []),
      rowWith('relation does_not_contain k1', (ref) => ({ property: 'Tasks', relation: { does_not_contain: ref('k1') } }), ['P2', 'P3', 'P4']),
      rowWith('relation does_not_contain k3, in the trash', (ref) => ({ property: 'Tasks', relation: { does_not_contain: ref('k3') } }), [
        'P1',
        'P2',
        'P3',
        'P4',
        'P5',
      ]),
      rowWith('relation by id contains k2', (ref) => ({ property: ref('#Tasks'), relation: { contains: ref('k2') } }), ['P1', 'P4']),
      row({ property: 'Tasks', relation: { is_empty: true } }, ['P2', 'P3']),
      row({ property: 'Tasks', relation: { is_not_empty: true } }, ['P1', 'P4', 'P5']),
      row({ property: 'AllPoints', rollup: { any: { number: { greater_than: 4 } } } }, ['P1', 'P4']),
      row({ property: 'AllPoints', rollup: { any: { number: { greater_than: 6 } } } }, []),
      row({ property: 'AllPoints', rollup: { every: { number: { less_than: 3 } } } }, ['P2', 'P3', 'P5']),
      row({ property: 'AllPoints', rollup: { none: { number: { greater_than: 4 } } } }, ['P2', 'P3', 'P5']),
      row({ property: 'AllDone', rollup: { any: { checkbox: { equals: false } } } }, ['P1', 'P4']),
      row({ property: 'AllDone', rollup: { every: { checkbox: { equals: true } } } }, ['P2', 'P3', 'P5']),
      row({ property: 'AllTags', rollup: { any: { select: { equals: 'b' } } } }, ['P1', 'P4']),
      row({ property: 'AllTags', rollup: { every: { select: { equals: 'b' } } } }, ['P2', 'P3', 'P4']),
      row({ property: 'AllTags', rollup: { none: { select: { equals: 'a' } } } }, ['P2', 'P3', 'P4']),
      row({ property: 'AllDue', rollup: { any: { date: { after: '2024-04-01' } } } }, ['P1', 'P4']),
      row({ property: 'AllDue', rollup: { any: { date: { after: '2024-05-01' } } } }, []),
      row({ property: 'AllDue', rollup: { none: { date: { before: '2024-03-15' } } } }, ['P2', 'P3', 'P4']),
      row({ property: 'AllDue', rollup: { every: { date: { is_not_empty: true } } } }, ['P1', 'P2', 'P3', 'P5']),
      row({ property: 'AllLabels', rollup: { any: { rich_text: { contains: 'BETA' } } } }, ['P1', 'P4']),
      row({ property: 'AllLabels', rollup: { any: { rich_text: { equals: 'gamma' } } } }, []),
      row({ property: 'AllLabels', rollup: { none: { rich_text: { equals: 'alpha' } } } }, ['P2', 'P3', 'P4']),
      row({ property: 'Total', rollup: { number: { greater_than: 5 } } }, ['P1', 'P4']),
      row({ property: 'Total', rollup: { number: { equals: 1 } } }, ['P5']),
      row({ property: 'Total', rollup: { number: { does_not_equal: 6 } } }, ['P2', 'P3', 'P4', 'P5']),
      row({ property: 'Total', rollup: { number: { is_empty: true } } }, ['P2', 'P3']),
      row({ property: 'Latest', rollup: { date: { on_or_after: '2024-04-15' } } }, ['P1', 'P4']),
      row({ property: 'Latest', rollup: { date: { before: '2024-04-01' } } }, ['P5']),
      row({ property: 'Latest', rollup: { date: { is_empty: true } } }, ['P2', 'P3']),
      row({ property: 'Latest', rollup: { date: { next_month: {} } } }, ['P1', 'P4']),
    ]);

    test('a rollup condition that does not fit the rollup is a validation error', async () => {
      const cases: Array<[Json, RegExp]> = [
        [{ property: 'Total', rollup: { date: { equals: '2024-04-15' } } }, /body\.filter\.rollup/],
        [{ property: 'Latest', rollup: { number: { equals: 1 } } }, /body\.filter\.rollup/],
        [{ property: 'AllPoints', rollup: { any: { rich_text: { contains: 'x' } } } }, /body\.filter\.rollup\.any/],
        [{ property: 'AllPoints', rollup: { any: { number: { equals: 'x' } } } }, /body\.filter\.rollup\.any\.number\.equals/],
      ];
      for (const [filter, path] of cases) expectValidation(await query(server, fx.token, f.source.id, { filter }), path);
    });
  });

  /*
   * At NOW: v1 verified with no end, v2 verified until 2024-12-31, v3 verified until 2024-03-01
   * (expired), v4 unverified, v5 never set.
   */
  describe('verification: verified, expired, none, and does_not_equal', () => {
    const f = new Family();
    before(async () => {
      await f.make('Verified', { Name: { title: {} }, Check: { verification: {} } });
      await f.page('v1', { Check: { verification: { state: 'verified', date: { start: '2024-01-01' } } } });
      await f.page('v2', { Check: { verification: { state: 'verified', date: { start: '2024-01-01', end: '2024-12-31' } } } });
      await f.page('v3', { Check: { verification: { state: 'verified', date: { start: '2023-01-01', end: '2024-03-01' } } } });
      await f.page('v4', { Check: { verification: { state: 'unverified' } } });
      await f.page('v5', {});
    });
    f.table([
      row({ property: 'Check', verification: { status: 'verified' } }, ['v1', 'v2']),
      row({ property: 'Check', verification: { status: 'expired' } }, ['v3']),
      row({ property: 'Check', verification: { status: 'none' } }, ['v4', 'v5']),
      row({ property: 'Check', verification: { does_not_equal: 'verified' } }, ['v3', 'v4', 'v5']),
      row({ property: 'Check', verification: { does_not_equal: 'expired' } }, ['v1', 'v2', 'v4', 'v5']),
      row({ property: 'Check', verification: { does_not_equal: 'none' } }, ['v1', 'v2', 'v3']),
    ]);

    test('expiry follows the clock', async () => {
      try {
        await setClock(server, '2025-01-15T00:00:00.000Z');
        assert.deepEqual(await f.matches({ property: 'Check', verification: { status: 'expired' } }), ['v2', 'v3']);
        assert.deepEqual(await f.matches({ property: 'Check', verification: { status: 'verified' } }), ['v1']);
      } finally {
        await setClock(server, NOW);
      }
    });
  });

  describe('refused: validation errors naming the path, unknown data sources', () => {
    let source: Source;
    before(async () => {
      source = await createSource(server, fx.token, root.id, 'Refusals', {
        Name: { title: {} },
        Count: { number: {} },
        Done: { checkbox: {} },
        When: { date: {} },
        Kind: { select: { options: [{ name: 'A' }] } },
      });
    });
    const refused = (body: Json) => query(server, fx.token, source.id, body);
    const count = (condition: Json) => ({ property: 'Count', number: condition });

    test('a third level of nesting', async () => {
      const filter = { and: [{ or: [{ and: [count({ equals: 1 }), count({ equals: 2 })] }] }] };
      expectValidation(await refused({ filter }), /body\.filter\.and\[0\]\.or\[0\]/);
    });

    test('an unknown property, by name and by id, is named', async () => {
      const res = await refused({ filter: { property: 'Nope', number: { equals: 1 } } });
      expectValidation(res, 'body.filter.property');
      assert.match(res.body.message, /Nope/);
      const nested = await refused({ filter: { or: [count({ equals: 1 }), { property: 'Missing%20id', checkbox: { equals: true } }] } });
      expectValidation(nested, 'body.filter.or[1].property');
      assert.match(nested.body.message, /Missing/);
    });

    test('a type key that does not fit the property', async () => {
      expectValidation(await refused({ filter: { property: 'Count', checkbox: { equals: true } } }), 'body.filter.checkbox');
      expectValidation(await refused({ filter: { property: 'Done', number: { equals: 1 } } }), 'body.filter.number');
      expectValidation(await refused({ filter: { property: 'Kind', multi_select: { contains: 'A' } } }), 'body.filter.multi_select');
      expectValidation(await refused({ filter: { property: 'Name', date: { equals: '2024-01-01' } } }), 'body.filter.date');
      expectValidation(await refused({ filter: { and: [count({ equals: 1 }), { property: 'When', rich_text: { equals: 'x' } }] } }), /body\.filter\.and\[1\]/);
    });

    test('a wrong operand, an unknown operator, several operators, an empty condition', async () => {
      expectValidation(await refused({ filter: { and: [count({ equals: 1 }), count({ equals: 'x' })] } }), 'body.filter.and[1].number.equals');
      expectValidation(
        await refused({ filter: { or: [count({ equals: 1 }), { and: [count({ equals: 1 }), count({ equals: 'x' })] }] } }),
        'body.filter.or[1].and[1].number.equals',
      );
      expectValidation(await refused({ filter: count({ about: 3 }) }), /body\.filter\.number/);
      expectValidation(await refused({ filter: count({ equals: 1, greater_than: 0 }) }), /body\.filter\.number/);
      expectValidation(await refused({ filter: count({}) }), /body\.filter\.number/);
      expectValidation(await refused({ filter: count({ is_empty: false }) }), /body\.filter\.number\.is_empty/);
      expectValidation(await refused({ filter: { property: 'When', date: { equals: 'soon' } } }), 'body.filter.date.equals');
      expectValidation(await refused({ filter: { property: 'When', date: { past_week: { days: 3 } } } }), /body\.filter\.date\.past_week/);
      expectValidation(await refused({ filter: { property: 'Done', checkbox: { equals: 'yes' } } }), 'body.filter.checkbox.equals');
      expectValidation(await refused({ filter: { property: 'Kind', select: { equals: 3 } } }), /body\.filter\.select\.equals/);
      expectValidation(await refused({ filter: { timestamp: 'created_time', created_time: { equals: 'soon' } } }), 'body.filter.created_time.equals');
      expectValidation(await refused({ filter: { timestamp: 'created_at', created_at: { equals: 'today' } } }), 'body.filter.timestamp');
    });

    test('page_size outside 1..100', async () => {
      expectValidation(await refused({ page_size: 0 }), 'body.page_size');
      expectValidation(await refused({ page_size: 101 }), 'body.page_size');
      expectValidation(await refused({ page_size: 2.5 }), 'body.page_size');
      assert.equal((await refused({ page_size: 100 })).status, 200);
      assert.equal((await refused({ page_size: 1 })).status, 200);
    });

    test('an unknown or unshared data source is object_not_found', async () => {
      expectError(await query(server, fx.token, randomUUID(), {}), 404, 'object_not_found');
      const hidden = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/pages`, { title: 'Not shared' });
      await admin(server, 'POST', `/connections/${fx.connection.id}/grants`, { object_id: hidden.id });
      const unshared = await createSource(server, fx.token, hidden.id, 'Soon unshared', { Name: { title: {} } });
      assert.equal((await query(server, fx.token, unshared.id, {})).status, 200);
      await admin(server, 'DELETE', `/connections/${fx.connection.id}/grants/${hidden.id}`);
      expectError(await query(server, fx.token, unshared.id, {}), 404, 'object_not_found');
    });
  });
});

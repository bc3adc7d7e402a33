/**
 * The data the differential query test runs against, built only through the HTTP API: a data
 * source "Items" with every property type and ~230 pages of generated values, related to a
 * second data source "Targets" (with a relation to itself), some pages of each in the trash,
 * created and edited by three connections. Values come from fast-check with a fixed seed, so
 * every run (and both stores) sees the same data; dates are days relative to the day the
 * fixture is built, so relative dates and windows have values on both sides of each boundary.
 */
import fc from 'fast-check';
import type { TestServer } from '../helpers/server.js';
import { call } from '../helpers/http.js';
import { admin, addConnection, makeSharedPage, type Fixture } from '../helpers/factories.js';
import type { DataSourceObject, PageObject, World } from './reference.js';

type Json = Record<string, any>;

const SEED = 12_012;
const ITEM_PAGES = 200;
const TARGET_PAGES = 40;
const DAY = 86_400_000;

/** Text with case pairs outside ASCII, decomposed forms, LIKE wildcards and code points whose lower case is longer. */
export const TEXTS = [
  'Éclair',
  'ÉCLAIR',
  'éclair',
  'e\u0301clair',
  'straße',
  'STRASSE',
  'Straße',
  'İstanbul',
  'istanbul',
  'ISTANBUL',
  'ı',
  'Kelvin \u212A',
  'kelvin k',
  'Ωmega',
  'ωMEGA',
  'café au lait',
  'CAFÉ',
  '100% pure_',
  'a_b',
  'x%y',
  'back\\slash',
  'Apple pie',
  'apple',
  '日本語テキスト',
  'emoji 🎉 party',
  'ǅemal',
  'plain text',
  ' spaced ',
  'Zebra',
];
export const URLS = ['https://Example.com/Path', 'https://example.com/path', 'http://ÉCOLE.fr/x_y', 'https://a.b/100%25'];
export const EMAILS = ['ADA@Example.COM', 'ada@example.com', 'straße@beispiel.de', 'x_y@z.io'];
export const PHONES = ['+1 555 0100', '+44 20 7946 0958', '(555) 010-0199', '+49 30 ÄBC'];
/** Option names are unique regardless of case; filters compare them exactly, so operands probe 'alpha' against 'Alpha'. */
export const TAG_OPTIONS = ['Alpha', 'Éclair', 'Beta', 'Gamma γ', 'ÄÖÜ'];
export const LABEL_OPTIONS = ['red', 'green', 'blue', 'straße', 'Über'];
/** Two options in each group; "In progress" is also a group's name, and the option wins. */
export const STAGE_OPTIONS = [
  { name: 'Not started', group: 'To-do' },
  { name: 'Backlog', group: 'To-do' },
  { name: 'In progress', group: 'In progress' },
  { name: 'Review', group: 'In progress' },
  { name: 'Done', group: 'Complete' },
  { name: 'Shipped', group: 'Complete' },
];
export const STATUS_GROUPS = ['To-do', 'In progress', 'Complete'];
/** Day offsets from the fixture's day that sit on the edges of the relative dates and windows. */
export const EDGE_DAYS = [-367, -366, -365, -364, -32, -31, -30, -29, -28, -8, -7, -6, -1, 0, 1, 2, 6, 7, 8, 9, 28, 29, 30, 31, 32, 364, 365, 366, 367];

export interface DateSpec {
  day: number;
  time: { hour: number; minute: number; second: number; ms: number; zone: string } | null;
  endDays: number | null;
}

export interface QueryConnection {
  kind: 'personal' | 'internal' | 'public';
  token: string;
  /** What `me` means to this connection: its person, none for an internal one. */
  me: string | null;
}

export interface QueryFixture {
  itemsId: string;
  targetsId: string;
  dataSources: Map<string, DataSourceObject>;
  pages: Map<string, PageObject>;
  connections: QueryConnection[];
  /** Persons and bots of the workspace. */
  userIds: string[];
  /** The fixture's UTC day at midnight: generated dates are days from it. */
  day0: number;
  /** Every created_time and last_edited_time lies in [first, last] (milliseconds). */
  timestamps: { first: number; last: number };
  world(me: string | null, now: Date): World;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function dateString(day0: number, day: number, time: DateSpec['time']): string {
  const date = isoDay(day0 + day * DAY);
  if (!time) return date;
  return `${date}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}.${pad(time.ms, 3)}${time.zone}`;
}

export function dateValue(day0: number, spec: DateSpec): { start: string; end?: string } {
  const start = dateString(day0, spec.day, spec.time);
  if (spec.endDays === null) return { start };
  // The end keeps the start's form and zone; a later day or a later hour keeps it after the start.
  const endTime = spec.time && spec.endDays === 0 ? { ...spec.time, hour: Math.min(23, spec.time.hour + 3) } : spec.time;
  return { start, end: dateString(day0, spec.day + spec.endDays, endTime) };
}

const dayArb = fc.oneof(fc.constantFrom(...EDGE_DAYS), fc.integer({ min: -400, max: 400 }));
export const dateSpecArb: fc.Arbitrary<DateSpec> = fc.record({
  day: dayArb,
  time: fc.option(
    fc.record({
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      ms: fc.integer({ min: 0, max: 999 }),
      // No offset reads as UTC; an offset can move the instant to another UTC day.
      zone: fc.constantFrom('Z', '', '+05:30', '-08:00', '+14:00'),
    }),
    { freq: 2 },
  ),
  endDays: fc.option(fc.constantFrom(0, 1, 3, 10, 40, 400), { freq: 2 }),
});

const textArb = fc.array(fc.constantFrom(...TEXTS), { maxLength: 3 });
const numberArb = fc.option(
  fc.oneof(
    fc.integer({ min: -50, max: 50 }),
    fc.integer({ min: -400, max: 400 }).map((n) => n / 4),
    fc.constantFrom(0, -0.5, 1e9, 12.75),
  ),
  { freq: 5 },
);

function subsetArb<T>(items: readonly T[], maxLength: number): fc.Arbitrary<T[]> {
  return fc.uniqueArray(fc.constantFrom(...items), { maxLength });
}

interface ItemSpec {
  title: string[];
  notes: string[];
  num: number | null;
  done: boolean;
  tag: string | null;
  labels: string[];
  /** undefined: left to the default (the first To-do option); null: explicitly empty. */
  stage: string | null | undefined;
  due: DateSpec | null;
  owners: number[];
  files: number;
  site: string | null;
  mail: string | null;
  phone: string | null;
  links: number[];
  verification: 'none' | 'verified' | 'expired' | 'current' | null;
  creator: number;
  editor: number | null;
}

const itemArb = (people: number, targets: number): fc.Arbitrary<ItemSpec> =>
  fc.record({
    title: textArb,
    notes: textArb,
    num: numberArb,
    done: fc.boolean(),
    tag: fc.option(fc.constantFrom(...TAG_OPTIONS), { freq: 4 }),
    labels: subsetArb(LABEL_OPTIONS, 3),
    stage: fc.oneof(
      { arbitrary: fc.constantFrom(...STAGE_OPTIONS.map((o) => o.name)), weight: 6 },
      { arbitrary: fc.constant(null), weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    due: fc.option(dateSpecArb, { freq: 5 }),
    owners: fc.uniqueArray(fc.nat({ max: people - 1 }), { maxLength: 3 }),
    files: fc.nat({ max: 2 }),
    site: fc.option(fc.constantFrom(...URLS), { freq: 3 }),
    mail: fc.option(fc.constantFrom(...EMAILS), { freq: 3 }),
    phone: fc.option(fc.constantFrom(...PHONES), { freq: 3 }),
    links: fc.uniqueArray(fc.nat({ max: targets - 1 }), { maxLength: 6 }),
    verification: fc.constantFrom('none', 'verified', 'expired', 'current', null),
    creator: fc.nat({ max: 2 }),
    editor: fc.option(fc.nat({ max: 2 }), { freq: 3 }),
  });

/** Sets (of fixed size) of trashed indexes, chosen by the seeded generator. */
function pick(count: number, of: number, seed: number): Set<number> {
  return new Set(fc.sample(fc.uniqueArray(fc.nat({ max: of - 1 }), { minLength: count, maxLength: count }), { seed, numRuns: 1 })[0]);
}

/** Runs `work` over `items`, `width` at a time, keeping the order of results. */
export async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

const text = (content: string) => ({ type: 'text', text: { content } });

export async function buildQueryFixture(server: TestServer, fx: Fixture): Promise<QueryFixture> {
  const ok = async (token: string, method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await call<Json>(server.url, method, path, { token, body });
    if (res.status !== 200) throw new Error(`${method} ${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const root = await makeSharedPage(server, fx, 'Queries');
  const bea = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name: 'Bea Ünal', email: 'bea@example.com' });
  const cem = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name: 'Cem', email: 'cem@example.com' });
  const dora = await admin(server, 'POST', `/workspaces/${fx.workspaceId}/users`, { name: 'Dörte', email: 'dora@example.com' });
  const capabilities = ['read_content', 'update_content', 'insert_content', 'user_info_with_email'];
  const internal = await addConnection(server, fx.workspaceId, capabilities, 'internal');
  const publicConnection = await addConnection(server, fx.workspaceId, capabilities, 'public', bea.id);
  for (const c of [internal, publicConnection]) await admin(server, 'POST', `/connections/${c.id}/grants`, { object_id: root.id });
  // Writers by index: the personal connection (Ada's), the internal one, the public one (Bea's).
  const writers = [fx.token, internal.token, publicConnection.token];
  const persons = [fx.user.id, bea.id, cem.id, dora.id];

  const targetsDb = await ok(fx.token, 'POST', '/v1/databases', {
    parent: { page_id: root.id },
    title: [text('Targets')],
    initial_data_source: {
      properties: {
        Name: { title: {} },
        Num: { number: {} },
        Tag: { select: { options: TAG_OPTIONS.map((name) => ({ name })) } },
        Notes: { rich_text: {} },
        Done: { checkbox: {} },
        Labels: { multi_select: { options: LABEL_OPTIONS.map((name) => ({ name })) } },
        When: { date: {} },
        Who: { people: {} },
        Stage: { status: {} },
        Files: { files: {} },
      },
    },
  });
  const targetsId: string = targetsDb.data_sources[0].id;
  await ok(fx.token, 'PATCH', `/v1/data_sources/${targetsId}`, { properties: { Parent: { relation: { data_source_id: targetsId, single_property: {} } } } });

  const showOriginal = (target: string) => ({ rollup: { relation_property_name: 'Links', rollup_property_name: target, function: 'show_original' } });
  const itemsDb = await ok(fx.token, 'POST', '/v1/databases', {
    parent: { page_id: root.id },
    title: [text('Items')],
    initial_data_source: {
      properties: {
        Name: { title: {} },
        Notes: { rich_text: {} },
        Num: { number: {} },
        Done: { checkbox: {} },
        Tag: { select: { options: TAG_OPTIONS.map((name) => ({ name })) } },
        Labels: { multi_select: { options: LABEL_OPTIONS.map((name) => ({ name })) } },
        Stage: { status: { options: STAGE_OPTIONS } },
        'Due date': { date: {} },
        Owners: { people: {} },
        Attachments: { files: {} },
        Site: { url: {} },
        Mail: { email: {} },
        Phone: { phone_number: {} },
        Links: { relation: { data_source_id: targetsId, single_property: {} } },
        LinkNums: showOriginal('Num'),
        LinkTags: showOriginal('Tag'),
        LinkTagsUnique: { rollup: { relation_property_name: 'Links', rollup_property_name: 'Tag', function: 'show_unique' } },
        LinkNotes: showOriginal('Notes'),
        LinkNames: showOriginal('Name'),
        LinkDone: showOriginal('Done'),
        LinkLabels: showOriginal('Labels'),
        LinkWhen: showOriginal('When'),
        LinkWho: showOriginal('Who'),
        LinkStage: showOriginal('Stage'),
        LinkFiles: showOriginal('Files'),
        LinkParents: showOriginal('Parent'),
        Total: { rollup: { relation_property_name: 'Links', rollup_property_name: 'Num', function: 'sum' } },
        Earliest: { rollup: { relation_property_name: 'Links', rollup_property_name: 'When', function: 'earliest_date' } },
        Span: { rollup: { relation_property_name: 'Links', rollup_property_name: 'When', function: 'date_range' } },
        FText: { formula: { expression: 'prop("Name") + " " + prop("Notes")' } },
        FNum: { formula: { expression: 'prop("Num") * 2' } },
        FCheck: { formula: { expression: 'prop("Num") > 10' } },
        FDate: { formula: { expression: 'dateAdd(prop("Due date"), 1, "days")' } },
        Created: { created_time: {} },
        Edited: { last_edited_time: {} },
        Creator: { created_by: {} },
        Editor: { last_edited_by: {} },
        Ref: { unique_id: { prefix: 'IT' } },
        Verified: { verification: {} },
      },
    },
  });
  const itemsId: string = itemsDb.data_sources[0].id;

  const first = Date.now();
  const day0 = Math.floor(first / DAY) * DAY;

  // Targets, each maybe under earlier ones (the self relation).
  const targetSpecs = fc.sample(
    fc.record({
      title: textArb,
      notes: textArb,
      num: numberArb,
      done: fc.boolean(),
      tag: fc.option(fc.constantFrom(...TAG_OPTIONS), { freq: 4 }),
      labels: subsetArb(LABEL_OPTIONS, 3),
      when: fc.option(dateSpecArb, { freq: 5 }),
      who: fc.uniqueArray(fc.nat({ max: persons.length - 1 }), { maxLength: 2 }),
      stage: fc.option(fc.constantFrom('Not started', 'In progress', 'Done'), { freq: 4 }),
      files: fc.nat({ max: 1 }),
      parents: fc.uniqueArray(fc.nat({ max: TARGET_PAGES - 1 }), { maxLength: 2 }),
    }),
    { seed: SEED, numRuns: TARGET_PAGES },
  );
  const targetIds: string[] = [];
  for (const [i, t] of targetSpecs.entries()) {
    const page = await ok(fx.token, 'POST', '/v1/pages', {
      parent: { data_source_id: targetsId },
      properties: {
        Name: { title: t.title.map(text) },
        Notes: { rich_text: t.notes.map(text) },
        Num: { number: t.num },
        Done: { checkbox: t.done },
        Tag: { select: t.tag === null ? null : { name: t.tag } },
        Labels: { multi_select: t.labels.map((name) => ({ name })) },
        When: { date: t.when === null ? null : dateValue(day0, t.when) },
        Who: { people: t.who.map((k) => ({ id: persons[k] })) },
        Stage: { status: t.stage === null ? null : { name: t.stage } },
        Files: {
          files: Array.from({ length: t.files }, (_, k) => ({ name: `t${i}-${k}.pdf`, external: { url: `https://files.example.com/t${i}/${k}.pdf` } })),
        },
        Parent: { relation: t.parents.filter((k) => k < i).map((k) => ({ id: targetIds[k] })) },
      },
    });
    targetIds.push(page.id);
  }

  const items = fc.sample(itemArb(persons.length, TARGET_PAGES), { seed: SEED + 1, numRuns: ITEM_PAGES });
  const verificationValue = (v: ItemSpec['verification']) => {
    switch (v) {
      case 'none':
        return { state: 'unverified' };
      case 'verified':
        return { state: 'verified' };
      case 'expired':
        return { state: 'verified', date: { start: isoDay(day0 - 90 * DAY), end: isoDay(day0 - 30 * DAY) } };
      case 'current':
        return { state: 'verified', date: { start: isoDay(day0 - 90 * DAY), end: isoDay(day0 + 30 * DAY) } };
      default:
        return undefined;
    }
  };
  const itemIds = await inParallel(items, 4, async (item, i) => {
    const properties: Json = {
      Name: { title: item.title.map(text) },
      Notes: { rich_text: item.notes.map(text) },
      Num: { number: item.num },
      Done: { checkbox: item.done },
      Tag: { select: item.tag === null ? null : { name: item.tag } },
      Labels: { multi_select: item.labels.map((name) => ({ name })) },
      'Due date': { date: item.due === null ? null : dateValue(day0, item.due) },
      Owners: { people: item.owners.map((k) => ({ id: persons[k] })) },
      Attachments: {
        files: Array.from({ length: item.files }, (_, k) => ({ name: `i${i}-${k}.txt`, external: { url: `https://files.example.com/i${i}/${k}.txt` } })),
      },
      Site: { url: item.site },
      Mail: { email: item.mail },
      Phone: { phone_number: item.phone },
      Links: { relation: item.links.map((k) => ({ id: targetIds[k] })) },
    };
    if (item.stage !== undefined) properties.Stage = { status: item.stage === null ? null : { name: item.stage } };
    const verification = verificationValue(item.verification);
    if (verification) properties.Verified = { verification };
    const page = await ok(writers[item.creator], 'POST', '/v1/pages', { parent: { data_source_id: itemsId }, properties });
    if (item.editor !== null) await ok(writers[item.editor], 'PATCH', `/v1/pages/${page.id}`, { properties: { Done: { checkbox: !item.done } } });
    return page.id as string;
  });

  // Some of each in the trash: trashed targets stay in the relations that name them.
  for (const k of pick(6, TARGET_PAGES, SEED + 2)) await ok(fx.token, 'PATCH', `/v1/pages/${targetIds[k]}`, { in_trash: true });
  for (const k of pick(14, ITEM_PAGES, SEED + 3)) await ok(writers[k % 3], 'PATCH', `/v1/pages/${itemIds[k]}`, { in_trash: true });
  const last = Date.now();

  const dataSources = new Map<string, DataSourceObject>();
  for (const id of [itemsId, targetsId]) dataSources.set(id, (await ok(fx.token, 'GET', `/v1/data_sources/${id}`)) as DataSourceObject);
  // In creation order, whatever order the reads finish in: operands are drawn from the pages in
  // this order, so the seed picks the same pages every run.
  const ids = [...targetIds, ...itemIds];
  const read = await inParallel(ids, 8, async (id) => (await ok(fx.token, 'GET', `/v1/pages/${id}`)) as PageObject);
  const pages = new Map(read.map((page) => [page.id, page]));

  const connections: QueryConnection[] = [
    { kind: 'personal', token: fx.token, me: fx.user.id },
    { kind: 'internal', token: internal.token, me: null },
    { kind: 'public', token: publicConnection.token, me: bea.id },
  ];
  return {
    itemsId,
    targetsId,
    dataSources,
    pages,
    connections,
    userIds: [...persons, fx.connection.bot_id, internal.bot_id, publicConnection.bot_id],
    day0,
    timestamps: { first, last },
    world: (me, now) => ({ dataSources, pages, me, now }),
  };
}

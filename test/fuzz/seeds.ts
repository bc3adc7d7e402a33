/**
 * The objects a fuzz lane writes to, and the valid bodies ("seeds") the mutations start from. Each
 * lane has its own databases, pages and blocks, so a lane's requests run in a fixed order against
 * state no other lane touches: with a fixed seed, a lane's outcomes repeat from run to run.
 */
import type { TestServer } from '../helpers/server.js';
import type { Fixture } from '../helpers/factories.js';
import { LATEST_VERSION } from '../../src/versioning/versions.js';
import { everyTypeSchema, ok } from '../content/helpers.js';

type Json = any;

export interface Seed {
  path: string;
  body: Json;
}

export interface Lane {
  index: number;
  rootId: string;
  userId: string;
  tasksDb: string;
  tasksSource: string;
  taskPage: string;
  rowsDb: string;
  rowsSource: string;
  rowPage: string;
  schemaDb: string;
  schemaSource: string;
  multiDb: string;
  holder: string;
  anchor: string;
  toggle: string;
  /** PATCH /v1/blocks/:id targets by block type. */
  blocks: Record<string, string>;
  tableRow: string;
  /** Real ids of every kind, for values that are well formed but name the wrong object. */
  ids: string[];
}

const rt = (content: string) => [
  {
    type: 'text',
    text: { content, link: null },
    annotations: { bold: false, italic: true, strikethrough: false, underline: false, code: false, color: 'default' },
  },
];

function richText(lane: Pick<Lane, 'userId' | 'rootId'>): Json[] {
  return [
    { type: 'text', text: { content: 'Fuzz ', link: { url: 'https://example.com/x' } }, annotations: { bold: true, color: 'red_background' } },
    { type: 'mention', mention: { type: 'user', user: { object: 'user', id: lane.userId } } },
    { type: 'mention', mention: { type: 'date', date: { start: '2024-05-01T10:00:00Z', end: null, time_zone: null } } },
    { type: 'mention', mention: { type: 'page', page: { id: lane.rootId } } },
    { type: 'equation', equation: { expression: 'e^{i\\pi}+1=0' } },
  ];
}

/**
 * Every property type, as a schema request (the one the content tests use), with option colours and
 * a description to fuzz, and a one-way relation to the lane's task source: by database before
 * 2025-09-03, by data source since.
 */
function everyType(lane: Pick<Lane, 'tasksSource' | 'tasksDb'>, version: string): Json {
  const relation =
    version === '2022-06-28'
      ? { database_id: lane.tasksDb, type: 'single_property', single_property: {} }
      : { data_source_id: lane.tasksSource, type: 'single_property', single_property: {} };
  return {
    ...everyTypeSchema(lane.tasksSource),
    Kind: {
      select: {
        options: [
          { name: 'A', color: 'red' },
          { name: 'B', color: 'blue', description: 'second' },
        ],
      },
    },
    Tags: { multi_select: { options: [{ name: 'x' }, { name: 'y', color: 'green' }] } },
    Tasks: { type: 'relation', relation },
  };
}

/** A value of every writable type, for a page of the lane's rows source. */
function everyValue(lane: Lane): Json {
  return {
    Name: { type: 'title', title: richText(lane) },
    Notes: { rich_text: [...rt('plain '), { type: 'text', text: { content: 'link', link: { url: 'https://example.com' } } }] },
    Price: { type: 'number', number: 12.5 },
    Kind: { select: { name: 'A' } },
    Tags: { multi_select: [{ name: 'x' }, { name: 'y' }] },
    Stage: { status: { name: 'In progress' } },
    Due: { date: { start: '2024-05-01', end: '2024-05-03', time_zone: null } },
    Owners: { people: [{ object: 'user', id: lane.userId }] },
    Attachments: { files: [{ type: 'external', name: 'spec.pdf', external: { url: 'https://example.com/spec.pdf' } }] },
    Done: { checkbox: true },
    Site: { url: 'https://example.com' },
    Mail: { email: 'a@example.com' },
    Phone: { phone_number: '+1 555 0100' },
    Tasks: { relation: [{ id: lane.taskPage }] },
    Verified: { verification: { state: 'verified', date: { start: '2024-05-01', end: null } } },
  };
}

/** Blocks of many types, two nesting levels, as append and page creation take them. */
function blockTree(lane: Pick<Lane, 'userId' | 'rootId'>): Json[] {
  return [
    { object: 'block', type: 'paragraph', paragraph: { rich_text: richText(lane), color: 'blue' } },
    {
      type: 'heading_2',
      heading_2: { rich_text: rt('Heading'), is_toggleable: true, children: [{ type: 'paragraph', paragraph: { rich_text: rt('under heading') } }] },
    },
    {
      type: 'to_do',
      to_do: {
        rich_text: rt('do it'),
        checked: false,
        children: [
          {
            type: 'bulleted_list_item',
            bulleted_list_item: { rich_text: rt('item'), children: [{ type: 'paragraph', paragraph: { rich_text: rt('deepest') } }] },
          },
        ],
      },
    },
    { type: 'code', code: { rich_text: rt('print(1)'), language: 'python', caption: rt('caption') } },
    {
      type: 'toggle',
      toggle: {
        rich_text: rt('toggle'),
        children: [
          { type: 'quote', quote: { rich_text: rt('quote') } },
          { type: 'numbered_list_item', numbered_list_item: { rich_text: rt('n'), list_start_index: 3, list_format: 'roman' } },
        ],
      },
    },
    { type: 'callout', callout: { rich_text: rt('note'), icon: { type: 'emoji', emoji: '💡' }, color: 'gray_background' } },
    { type: 'equation', equation: { expression: 'a^2+b^2=c^2' } },
    { type: 'bookmark', bookmark: { url: 'https://example.com', caption: [] } },
    { type: 'image', image: { type: 'external', external: { url: 'https://example.com/a.png' } } },
    {
      type: 'table',
      table: {
        table_width: 2,
        has_column_header: true,
        has_row_header: false,
        children: [
          { type: 'table_row', table_row: { cells: [rt('a'), rt('b')] } },
          { type: 'table_row', table_row: { cells: [rt('c'), []] } },
        ],
      },
    },
    {
      type: 'column_list',
      column_list: {
        children: [
          { type: 'column', column: { width_ratio: 0.5, children: [{ type: 'paragraph', paragraph: { rich_text: rt('left') } }] } },
          { type: 'column', column: { children: [{ type: 'divider', divider: {} }] } },
        ],
      },
    },
    { type: 'link_to_page', link_to_page: { type: 'page_id', page_id: lane.rootId } },
    { type: 'table_of_contents', table_of_contents: { color: 'default' } },
  ];
}

/** One update body per block type the lane keeps a block of. */
function blockUpdates(): Record<string, Json> {
  return {
    paragraph: { type: 'paragraph', paragraph: { rich_text: rt('edited'), color: 'red', icon: { type: 'emoji', emoji: '✏️' } } },
    heading_2: { heading_2: { rich_text: rt('edited heading'), is_toggleable: false, color: 'green' } },
    to_do: { type: 'to_do', to_do: { rich_text: rt('done'), checked: true } },
    code: { code: { rich_text: rt('x = 2'), language: 'typescript', caption: rt('c') } },
    callout: { callout: { rich_text: rt('c'), icon: { type: 'external', external: { url: 'https://example.com/i.png' } }, color: 'default' } },
    bookmark: { bookmark: { url: 'https://example.org', caption: rt('site') } },
    equation: { equation: { expression: 'x' } },
    numbered_list_item: { numbered_list_item: { rich_text: rt('n'), list_start_index: 7, list_format: 'letters' } },
    image: { image: { type: 'external', external: { url: 'https://example.com/b.png' }, caption: rt('img') } },
    table: { table: { has_column_header: false, has_row_header: true } },
  };
}

export interface RouteSpec {
  name: string;
  method: string;
  /** Versions this route is fuzzed at, with weights (old versions get a share). */
  versions: readonly (readonly [string, number])[];
  seeds(lane: Lane, version: string): Seed[];
  /** Runs over all lanes; the lanes split them. */
  runs: number;
}

const EVERY_VERSION = [
  [LATEST_VERSION, 8],
  ['2025-09-03', 1],
  ['2022-06-28', 1],
] as const;
const SINCE_DATA_SOURCES = [
  [LATEST_VERSION, 8],
  ['2025-09-03', 2],
] as const;

export const ROUTES: readonly RouteSpec[] = [
  {
    name: 'POST /v1/pages',
    method: 'POST',
    versions: EVERY_VERSION,
    runs: 2000,
    seeds: (lane, version) => [
      {
        path: '/v1/pages',
        body: {
          parent: version === '2022-06-28' ? { type: 'database_id', database_id: lane.rowsDb } : { type: 'data_source_id', data_source_id: lane.rowsSource },
          properties: everyValue(lane),
          icon: { type: 'emoji', emoji: '🧪' },
          cover: { type: 'external', external: { url: 'https://example.com/cover.png' } },
          children: [{ type: 'paragraph', paragraph: { rich_text: rt('body') } }],
        },
      },
      {
        path: '/v1/pages',
        body: { parent: { type: 'page_id', page_id: lane.rootId }, properties: { title: { title: rt('Child page') } }, children: blockTree(lane) },
      },
      {
        path: '/v1/pages',
        body: { parent: { database_id: lane.rowsDb }, properties: { Name: { title: rt('By database') }, Price: { number: -3 }, Done: { checkbox: false } } },
      },
    ],
  },
  {
    name: 'PATCH /v1/pages/:id',
    method: 'PATCH',
    versions: EVERY_VERSION,
    runs: 1400,
    seeds: (lane) => [
      {
        path: `/v1/pages/${lane.rowPage}`,
        body: {
          properties: everyValue(lane),
          icon: { type: 'emoji', emoji: '🦊' },
          cover: { type: 'external', external: { url: 'https://example.com/c.png' } },
        },
      },
      {
        path: `/v1/pages/${lane.rowPage}`,
        body: {
          properties: {
            Price: { number: null },
            Kind: { select: null },
            Due: { date: null },
            Site: { url: null },
            Tags: { multi_select: [] },
            Verified: { verification: { state: 'unverified' } },
          },
          icon: null,
          cover: null,
        },
      },
    ],
  },
  {
    name: 'PATCH /v1/blocks/:id/children',
    method: 'PATCH',
    versions: EVERY_VERSION,
    runs: 1600,
    seeds: (lane, version) => {
      const after = (id: string) => (version === LATEST_VERSION ? { position: { type: 'after_block', after_block: { id } } } : { after: id });
      return [
        { path: `/v1/blocks/${lane.holder}/children`, body: { children: blockTree(lane) } },
        { path: `/v1/blocks/${lane.holder}/children`, body: { children: blockTree(lane).slice(0, 3), ...after(lane.anchor) } },
        {
          path: `/v1/blocks/${lane.toggle}/children`,
          body: {
            children: [{ type: 'to_do', to_do: { rich_text: rt('nested'), children: [{ type: 'paragraph', paragraph: { rich_text: rt('deeper') } }] } }],
            ...(version === LATEST_VERSION ? { position: { type: 'start' } } : {}),
          },
        },
      ];
    },
  },
  {
    name: 'PATCH /v1/blocks/:id',
    method: 'PATCH',
    versions: EVERY_VERSION,
    runs: 1200,
    seeds: (lane) => [
      ...Object.entries(blockUpdates()).map(([type, body]) => ({ path: `/v1/blocks/${lane.blocks[type]}`, body })),
      { path: `/v1/blocks/${lane.tableRow}`, body: { type: 'table_row', table_row: { cells: [rt('x'), rt('y')] } } },
    ],
  },
  {
    name: 'POST /v1/databases',
    method: 'POST',
    versions: EVERY_VERSION,
    runs: 1200,
    seeds: (lane, version) => {
      const schema = (properties: Json) => (version === '2022-06-28' ? { properties } : { initial_data_source: { properties } });
      return [
        {
          path: '/v1/databases',
          body: {
            parent: { type: 'page_id', page_id: lane.rootId },
            title: richText(lane),
            description: rt('every type'),
            is_inline: true,
            icon: { type: 'emoji', emoji: '📚' },
            cover: { type: 'external', external: { url: 'https://example.com/db.png' } },
            ...schema(everyType(lane, version)),
          },
        },
        {
          path: '/v1/databases',
          body: { parent: { page_id: lane.rootId }, title: rt('Small'), ...schema({ Title: { title: {} }, Count: { number: {} } }) },
        },
      ];
    },
  },
  {
    name: 'PATCH /v1/databases/:id',
    method: 'PATCH',
    versions: EVERY_VERSION,
    runs: 1000,
    seeds: (lane, version) => [
      {
        path: `/v1/databases/${lane.schemaDb}`,
        body: {
          title: rt('Renamed'),
          description: richText(lane),
          is_inline: false,
          icon: { type: 'external', external: { url: 'https://example.com/i.png' } },
          cover: { type: 'external', external: { url: 'https://example.com/c.png' } },
        },
      },
      // Before data sources, the schema was edited on the database.
      ...(version === '2022-06-28'
        ? [
            {
              path: `/v1/databases/${lane.schemaDb}`,
              body: { title: rt('Schema'), properties: { Price: { number: { format: 'yen' } }, Extra: { rich_text: {} } } },
            },
          ]
        : [{ path: `/v1/databases/${lane.schemaDb}`, body: { icon: null, cover: null, title: [] } }]),
    ],
  },
  {
    name: 'POST /v1/data_sources',
    method: 'POST',
    versions: SINCE_DATA_SOURCES,
    runs: 1000,
    seeds: (lane, version) => [
      {
        path: '/v1/data_sources',
        body: {
          parent: { type: 'database_id', database_id: lane.multiDb },
          title: rt('Another source'),
          description: rt('d'),
          icon: { type: 'emoji', emoji: '🗂️' },
          properties: everyType(lane, version),
        },
      },
      { path: '/v1/data_sources', body: { parent: { database_id: lane.multiDb }, properties: { Title: { title: {} } } } },
    ],
  },
  {
    name: 'PATCH /v1/data_sources/:id',
    method: 'PATCH',
    versions: SINCE_DATA_SOURCES,
    runs: 1000,
    seeds: (lane) => [
      {
        path: `/v1/data_sources/${lane.schemaSource}`,
        body: {
          title: rt('Schema'),
          description: rt('edited'),
          icon: { type: 'emoji', emoji: '🧬' },
          properties: {
            Price: { number: { format: 'euro' } },
            Kind: { select: { options: [{ name: 'A' }, { name: 'B', color: 'blue' }, { name: 'C', color: 'pink' }] } },
            Notes: { name: 'Notes', description: 'free text' },
            Double: { formula: { expression: 'prop("Price") * 3' } },
            Extra: { type: 'date', date: {} },
            Points: { rollup: { relation_property_name: 'Tasks', rollup_property_name: 'Points', function: 'average' } },
          },
        },
      },
      { path: `/v1/data_sources/${lane.schemaSource}`, body: { properties: { Ref: { unique_id: { prefix: 'NEW' } }, Site: { url: {} } } } },
    ],
  },
];

/** Builds one lane's objects through the API, then checks that every seed of every route is accepted as is. */
export async function makeLane(server: TestServer, fx: Fixture, rootId: string, index: number): Promise<Lane> {
  const base = { rootId, userId: fx.user.id as string };
  const tasks = await ok(server, fx, 'POST', '/v1/databases', {
    parent: { page_id: rootId },
    title: rt(`Tasks ${index}`),
    initial_data_source: { properties: { Task: { title: {} }, Points: { number: {} } } },
  });
  const tasksSource = tasks.data_sources[0].id;
  const taskPage = await ok(server, fx, 'POST', '/v1/pages', {
    parent: { data_source_id: tasksSource },
    properties: { Task: { title: rt('t') }, Points: { number: 2 } },
  });
  const refs = { tasksDb: tasks.id as string, tasksSource: tasksSource as string };
  const database = async (title: string) =>
    ok(server, fx, 'POST', '/v1/databases', {
      parent: { page_id: rootId },
      title: rt(title),
      initial_data_source: { properties: everyType(refs, LATEST_VERSION) },
    });
  const rows = await database(`Rows ${index}`);
  const schema = await database(`Schema ${index}`);
  const multi = await database(`Multi ${index}`);
  const holder = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: rootId }, properties: { title: { title: rt(`Holder ${index}`) } } });
  const first = await ok(server, fx, 'PATCH', `/v1/blocks/${holder.id}/children`, {
    children: [
      { type: 'paragraph', paragraph: { rich_text: rt('anchor') } },
      { type: 'toggle', toggle: { rich_text: rt('toggle'), children: [{ type: 'paragraph', paragraph: { rich_text: rt('inside') } }] } },
    ],
  });
  const editPage = await ok(server, fx, 'POST', '/v1/pages', { parent: { page_id: rootId }, properties: { title: { title: rt(`Edits ${index}`) } } });
  const partial: Omit<Lane, 'rowPage' | 'blocks' | 'tableRow' | 'ids'> = {
    index,
    ...base,
    ...refs,
    taskPage: taskPage.id,
    rowsDb: rows.id,
    rowsSource: rows.data_sources[0].id,
    schemaDb: schema.id,
    schemaSource: schema.data_sources[0].id,
    multiDb: multi.id,
    holder: holder.id,
    anchor: first.results[0].id,
    toggle: first.results[1].id,
  };
  const rowPage = await ok(server, fx, 'POST', '/v1/pages', { parent: { data_source_id: partial.rowsSource }, properties: { Name: { title: rt('Row') } } });
  const kinds = Object.keys(blockUpdates());
  const tree = blockTree(base);
  const creates = kinds.map((kind) => tree.find((b) => b.type === kind) ?? { type: kind, [kind]: { rich_text: rt(kind) } });
  const made = await ok(server, fx, 'PATCH', `/v1/blocks/${editPage.id}/children`, { children: creates });
  const blocks: Record<string, string> = {};
  kinds.forEach((kind, i) => (blocks[kind] = made.results[i].id));
  const rowsList = await ok(server, fx, 'GET', `/v1/blocks/${blocks.table}/children`);
  const lane: Lane = {
    ...partial,
    rowPage: rowPage.id,
    blocks,
    tableRow: rowsList.results[0].id,
    ids: [rootId, fx.user.id, fx.connection.bot_id, taskPage.id, tasks.id, tasksSource, rows.id, rowPage.id, holder.id, first.results[0].id, blocks.code],
  };
  for (const route of ROUTES) {
    for (const [version] of route.versions) {
      for (const seed of route.seeds(lane, version)) await ok(server, fx, route.method, seed.path, seed.body, version);
    }
  }
  return lane;
}

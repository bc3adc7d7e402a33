/**
 * Generates a benchmark data source for queries (issue 12): one workspace, one personal
 * connection shared with two databases, a data source "Tasks" of N pages with twelve properties
 * (title, rich_text, number, checkbox, select, multi_select, status, date, people, relation,
 * rollup, created_time) and the data source it relates to, "Projects", of about 1,000 pages; a
 * few percent of the pages of each are in the trash.
 *
 *   node --import tsx scripts/generateDataSource.ts --pages 1000000 --data-dir /work/bench-data/folio-query-1m
 *   DATABASE_URL=postgres://…/folio_query_bench node --import tsx scripts/generateDataSource.ts --pages 100000 --data-dir /tmp/folio-query-pg-100k
 *
 * The workspace, the connection, the databases and their schemas are made by the server's own
 * commands (createDatabase runs the schema editor), so the schemas are exactly what the API
 * makes. Pages are written straight to the store with multi-row inserts, but every value is made
 * by the server's own functions: request-shaped values go through normalizeValue, computed
 * values (rollup, created_time, empty cells) through computePage, and the typed columns and
 * items through valueColumns, as createPage and refreshComputed do. So the rows are the rows the
 * API writes, whatever columns a later migration adds to valueColumns.
 *
 * The store follows DATABASE_URL like the server (unset: SQLite in --data-dir, a new temp dir by
 * default). The manifest (token, ids, counts) is written as JSON to --out (default <data
 * dir>/query-data-source.json) for bench/query to read. Data never goes in the repository.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Insertable } from 'kysely';
import cliProgress from 'cli-progress';
import { loadConfig } from '../src/config.js';
import { createCore, type Core } from '../src/core.js';
import type { Caller } from '../src/auth/capabilities.js';
import { authenticate } from '../src/auth/authenticate.js';
import { createWorkspace } from '../src/commands/admin/workspaces.js';
import { createPerson } from '../src/commands/admin/users.js';
import { createConnection } from '../src/commands/admin/connections.js';
import { createDatabase } from '../src/commands/databases/createDatabase.js';
import { createMentionResolver } from '../src/domain/mentionResolver.js';
import { parseContent, type DataSourceContent } from '../src/domain/contentShapes.js';
import { normalizeValue } from '../src/domain/properties/normalizeValue.js';
import { valueColumns } from '../src/domain/properties/valueColumns.js';
import { computePage, type ComputeEnv } from '../src/domain/properties/computeValues.js';
import { plainText, type RichTextItem } from '../src/domain/richText.js';
import type { Schema } from '../src/domain/properties/schemaTypes.js';
import type { StoredValue } from '../src/domain/properties/storedValue.js';
import type { ValueContext } from '../src/domain/properties/valueContext.js';
import type { DatabaseView } from '../src/domain/views.js';
import { loadWorkspaceUsers } from '../src/storage/repositories/users.js';
import { optimizeSearchIndex } from '../src/storage/repositories/search.js';
import type { NewObject, ObjectAncestorTable, PropertyValueItemTable, PropertyValueTable } from '../src/storage/schema.js';
import { newId } from '../src/ids/ids.js';

// ---- what is generated (bench/query's filters name these) -------------------------------------

/** Property names of "Tasks"; ids are the schema editor's, in the manifest. */
export const TASKS = {
  title: 'Name',
  richText: 'Notes',
  number: 'Estimate',
  checkbox: 'Done',
  select: 'Priority',
  multiSelect: 'Tags',
  status: 'Status',
  date: 'Due',
  people: 'Assignees',
  relation: 'Project',
  rollup: 'Project category',
  createdTime: 'Created',
} as const;

export const PROJECTS = { title: 'Name', select: 'Category', number: 'Budget' } as const;

/** From common to rare: values are drawn skewed towards the start of each list. */
export const PRIORITIES = ['Medium', 'Low', 'High', 'Someday', 'Urgent', 'Waiting', 'Blocked', 'Icebox'];
export const TAGS = ['backend', 'frontend', 'bug', 'docs', 'api', 'design', 'infra', 'mobile', 'security', 'performance'];
export const CATEGORIES = ['Growth', 'Infrastructure', 'Research', 'Support', 'Design', 'Operations'];
/**
 * No option is named after its group, so `equals: "In progress"` names the group and matches both
 * of its options (docs/decisions.md, queries: an option of the group's name would win).
 */
export const STATUS_OPTIONS = [
  { name: 'Not started', color: 'default', group: 'To-do' },
  { name: 'Doing', color: 'blue', group: 'In progress' },
  { name: 'Done', color: 'green', group: 'Complete' },
  { name: 'Backlog', color: 'gray', group: 'To-do' },
  { name: 'In review', color: 'purple', group: 'In progress' },
  { name: "Won't do", color: 'red', group: 'Complete' },
] as const;
/** The word bench/query's rich_text filter looks for: in about 4% of the notes, in any case. */
export const NOTE_WORD = 'blocker';

const PEOPLE = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Radia'];
const VERBS = ['Fix', 'Ship', 'Review', 'Design', 'Test', 'Document', 'Migrate', 'Plan', 'Refactor', 'Investigate', 'update', 'check'];
const FEATURES = [
  'search',
  'onboarding',
  'billing',
  'notifications',
  'dark mode',
  'mobile app',
  'permissions',
  'export',
  'calendar sync',
  'comments',
  'file uploads',
  'SSO',
  'audit log',
  'templates',
  'webhooks',
  'checkout',
];
/** Titles beyond ASCII, a few percent: sorting by title must fold them as the server does (text_folded), not as SQL's lower() would. */
const ACCENTED = ['Étude', 'Über', 'Ærø', 'Ölçüm', 'Ñandú', 'Ψηφίδα'];
const WORDS = [
  'the',
  'customer',
  'reported',
  'that',
  'export',
  'fails',
  'after',
  'login',
  'waiting',
  'on',
  'review',
  'from',
  'legal',
  'needs',
  'more',
  'tests',
  'see',
  'thread',
  'in',
  'support',
  'follow',
  'up',
  'next',
  'week',
  'draft',
  'ready',
  'for',
  'feedback',
];
const CODENAMES = ['Atlas', 'Beacon', 'Compass', 'Horizon', 'Lighthouse', 'Mercury', 'Nimbus', 'Orion', 'Phoenix', 'Quasar', 'Sequoia', 'Vega'];

export interface DataSourceManifest {
  store: 'sqlite' | 'postgres';
  dataDir: string;
  workspaceId: string;
  generatedAt: string;
  seed: number;
  connection: { id: string; token: string; userId: string; description: string };
  tasks: { databaseId: string; dataSourceId: string; properties: Record<string, { id: string; type: string }> };
  projects: { databaseId: string; dataSourceId: string; properties: Record<string, { id: string; type: string }> };
  people: string[];
  counts: { pages: number; trashed: number; relatedPages: number; relatedTrashed: number; values: number; items: number };
}

// ---- deterministic randomness ---------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = mulberry32(1);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
/** Early entries much more often, as real option use is. */
const pickSkewed = <T>(list: readonly T[], skew = 1.8): T => list[Math.floor(random() ** skew * list.length)];
const some = <T>(list: readonly T[], max: number, skew?: number): T[] => [
  ...new Set(Array.from({ length: Math.floor(random() * (max + 1)) }, () => pickSkewed(list, skew))),
];

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// ---- request-shaped values ----------------------------------------------------------------------

const text = (content: string) => [{ type: 'text', text: { content } }];

function taskTitle(n: number): string {
  const roll = random();
  if (roll < 0.03) return `${pick(ACCENTED)} ${pick(FEATURES)} ${n}`;
  return `${pick(VERBS)} ${pickSkewed(FEATURES, 1.3)}${random() < 0.5 ? ` #${Math.floor(random() * 500)}` : ''}`;
}

function note(): string {
  if (random() < 0.1) return '';
  const words = Array.from({ length: 3 + Math.floor(random() * 10) }, () => pick(WORDS));
  if (random() < 0.04) words.splice(Math.floor(random() * words.length), 0, pick([NOTE_WORD, 'Blocker:', 'BLOCKER', `${NOTE_WORD}s`]));
  return words.join(' ');
}

/** Most dates within the last four months or the next two, some ranges, some times and zones. */
function due(now: number): Record<string, unknown> | null {
  if (random() < 0.15) return null;
  const startMs = now - 120 * DAY + Math.floor(random() * 180 * DAY);
  const kind = random();
  if (kind < 0.08) {
    const hour = String(8 + Math.floor(random() * 10)).padStart(2, '0');
    return { start: `${isoDay(startMs)}T${hour}:30:00.000+02:00`, end: null };
  }
  if (kind < 0.12) return { start: `${isoDay(startMs)}T09:00:00`, end: null, time_zone: 'America/New_York' };
  const end = kind < 0.32 ? isoDay(startMs + (1 + Math.floor(random() * 14)) * DAY) : null;
  return { start: isoDay(startMs), end };
}

// ---- the run --------------------------------------------------------------------------------------

export interface GenerateOptions {
  pages: number;
  /** Pages of the related data source. */
  related: number;
  dataDir: string;
  out: string | null;
  seed: number;
  batch: number;
}

function parse(): GenerateOptions {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '100000' },
      related: { type: 'string', default: '1000' },
      'data-dir': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '42' },
      batch: { type: 'string', default: '5000' },
    },
  });
  const pages = Number(values.pages);
  if (!Number.isInteger(pages) || pages < 100) throw new Error(`--pages must be an integer ≥ 100, instead was "${values.pages}"`);
  const related = Number(values.related);
  if (!Number.isInteger(related) || related < 10) throw new Error(`--related must be an integer ≥ 10, instead was "${values.related}"`);
  return {
    pages,
    related,
    dataDir: values['data-dir'] ? path.resolve(values['data-dir']) : fs.mkdtempSync(path.join(os.tmpdir(), 'folio-query-data-source-')),
    out: values.out ? path.resolve(values.out) : null,
    seed: Number(values.seed) || 42,
    batch: Math.max(100, Number(values.batch) || 5000),
  };
}

/** The property ids of a schema by name, for the manifest. */
function propertyIds(schema: Schema): Record<string, { id: string; type: string }> {
  return Object.fromEntries(Object.values(schema).map((p) => [p.name, { id: p.id, type: p.type }]));
}

async function schemaOf(ctx: Core, dataSourceId: string): Promise<Schema> {
  const row = await ctx.store.db.selectFrom('objects').select('content').where('id', '=', dataSourceId).executeTakeFirstOrThrow();
  return parseContent<DataSourceContent>(row.content).properties as Schema;
}

/** The databases, through the command the API runs for POST /v1/databases. */
async function createDatabases(ctx: Core, caller: Caller) {
  const make = async (name: string, properties: Record<string, unknown>) => {
    const view = (await createDatabase(ctx, caller, {
      parent: { type: 'workspace', workspace: true },
      title: text(name),
      initial_data_source: { properties },
    } as Parameters<typeof createDatabase>[2])) as DatabaseView;
    const dataSourceId = view.dataSources[0].id;
    return { databaseId: view.row.id, dataSourceId, schema: await schemaOf(ctx, dataSourceId) };
  };
  const projects = await make('Projects', {
    [PROJECTS.title]: { title: {} },
    [PROJECTS.select]: { select: { options: CATEGORIES.map((name) => ({ name })) } },
    [PROJECTS.number]: { number: { format: 'dollar' } },
  });
  const tasks = await make('Tasks', {
    [TASKS.title]: { title: {} },
    [TASKS.richText]: { rich_text: {} },
    [TASKS.number]: { number: { format: 'number' } },
    [TASKS.checkbox]: { checkbox: {} },
    [TASKS.select]: { select: { options: PRIORITIES.map((name) => ({ name })) } },
    [TASKS.multiSelect]: { multi_select: { options: TAGS.map((name) => ({ name })) } },
    [TASKS.status]: { status: { options: STATUS_OPTIONS.map((o) => ({ ...o })) } },
    [TASKS.date]: { date: {} },
    [TASKS.people]: { people: {} },
    [TASKS.relation]: { relation: { data_source_id: projects.dataSourceId, single_property: {} } },
    [TASKS.rollup]: { rollup: { relation_property_name: TASKS.relation, rollup_property_name: PROJECTS.select, function: 'show_original' } },
    [TASKS.createdTime]: { created_time: {} },
  });
  return { projects, tasks };
}

export async function generateDataSource(args: GenerateOptions): Promise<DataSourceManifest> {
  random = mulberry32(args.seed);
  const config = loadConfig({ ...process.env, FOLIO_DATA_DIR: args.dataDir, FOLIO_LOG_LEVEL: 'silent' });
  const ctx = await createCore(config);
  const { store } = ctx;
  // A bulk load touches index pages all over a large file: a big page cache keeps them in memory.
  if (store.dialect.name === 'sqlite') await sql`PRAGMA cache_size = -1000000`.execute(store.db);
  try {
    const workspace = await createWorkspace(ctx, { name: `Query bench (${args.pages.toLocaleString('en')} pages)` });
    const people: string[] = [];
    for (const name of PEOPLE) people.push((await createPerson(ctx, workspace.id, { name, email: `${name.toLowerCase()}@bench.example` })).id);
    // A personal access token: it acts for a person, so `me` in a people filter means someone.
    const issued = await createConnection(ctx, workspace.id, {
      name: 'Query bench',
      kind: 'personal',
      user_id: people[0],
      capabilities: ['read_content', 'update_content', 'insert_content', 'user_info_with_email'],
    });
    const caller = await authenticate(store, `Bearer ${issued.token}`);
    const { projects, tasks } = await createDatabases(ctx, caller);

    const now = Date.now();
    const users = await loadWorkspaceUsers(store.db, workspace.id);
    // What computePage reads: every related page stays loaded, a task only while it is computed.
    const env: ComputeEnv = {
      now: new Date(now),
      users: new Map(users.map((u) => [u.id, u])),
      schemas: new Map([
        [projects.dataSourceId, projects.schema],
        [tasks.dataSourceId, tasks.schema],
      ]),
      pages: new Map(),
      compiled: new Map(),
    };
    const peopleIds = new Set(people);
    const projectIds: string[] = [];
    const projectSet = new Set<string>();
    const values: ValueContext = {
      db: store.db,
      lookups: {
        workspaceUserIds: async (ids) => new Set(ids.filter((id) => peopleIds.has(id))),
        pagesIn: async (_dataSourceId, ids) => new Set(ids.filter((id) => projectSet.has(id))),
      },
      workspaceId: workspace.id,
      actorId: caller.botId,
      resolver: createMentionResolver(store.db, workspace.id, config.publicUrl, caller.userId),
      schemaChanged: false,
      now: new Date(now),
    };

    const ancestorsOf = async (id: string) =>
      store.db.selectFrom('object_ancestors').select(['ancestor_id', 'depth']).where('descendant_id', '=', id).execute();
    const lineage = new Map([
      [projects.dataSourceId, await ancestorsOf(projects.dataSourceId)],
      [tasks.dataSourceId, await ancestorsOf(tasks.dataSourceId)],
    ]);
    const positions = new Map<string, number>();
    const counts = { pages: 0, trashed: 0, relatedPages: 0, relatedTrashed: 0, values: 0, items: 0 };

    let objects: NewObject[] = [];
    let closure: Insertable<ObjectAncestorTable>[] = [];
    let valueRows: Insertable<PropertyValueTable>[] = [];
    let itemRows: Insertable<PropertyValueItemTable>[] = [];

    /**
     * One page as POST /v1/pages makes it: the row insertPage writes, the request's values
     * normalised, then computePage's values (rollup, created_time, empty cells), as
     * writePageValues and refreshComputed store them.
     */
    const addPage = async (
      source: { dataSourceId: string; schema: Schema },
      request: Record<string, unknown>,
      createdMs: number,
      trashed: boolean,
    ): Promise<{ id: string; values: Map<string, StoredValue> }> => {
      const id = newId();
      const created = new Date(createdMs).toISOString();
      const edited = trashed ? new Date(createdMs + Math.floor(random() * (now - createdMs))).toISOString() : created;
      const position = positions.get(source.dataSourceId) ?? 0;
      positions.set(source.dataSourceId, position + 1);
      const byName = new Map(Object.values(source.schema).map((p) => [p.name, p]));
      const stored = new Map<string, StoredValue>();
      for (const [name, input] of Object.entries(request)) {
        const property = byName.get(name)!;
        stored.set(property.id, await normalizeValue(values, property, input, ['properties', name]));
      }
      const titleProperty = Object.values(source.schema).find((p) => p.type === 'title')!;
      const row = {
        id,
        workspace_id: workspace.id,
        object: 'page' as const,
        type: null,
        parent_type: 'data_source_id' as const,
        parent_id: source.dataSourceId,
        position,
        title: plainText((stored.get(titleProperty.id)?.title as RichTextItem[] | undefined) ?? []),
        content: JSON.stringify({ icon: null, cover: null }),
        in_trash: trashed ? 1 : 0,
        trashed: trashed ? 1 : 0,
        is_locked: 0,
        is_archived: 0,
        created_time: created,
        created_by: caller.botId,
        last_edited_time: edited,
        last_edited_by: caller.botId,
      };
      objects.push(row);
      closure.push({ ancestor_id: id, descendant_id: id, depth: 0 });
      for (const a of lineage.get(source.dataSourceId)!) closure.push({ ancestor_id: a.ancestor_id, descendant_id: id, depth: a.depth + 1 });
      env.pages.set(id, { row, values: stored });
      computePage(env, id);
      for (const [propertyId, value] of stored) {
        const { items, ...columns } = valueColumns(value);
        valueRows.push({ page_id: id, property_id: propertyId, data_source_id: source.dataSourceId, value: JSON.stringify(value), ...columns });
        for (const item of new Set(items)) itemRows.push({ page_id: id, property_id: propertyId, item });
      }
      return { id, values: stored };
    };

    const flush = async () => {
      const batches = [
        ['objects', objects],
        ['object_ancestors', closure],
        ['property_values', valueRows],
        ['property_value_items', itemRows],
      ] as const;
      counts.values += valueRows.length;
      counts.items += itemRows.length;
      objects = [];
      closure = [];
      valueRows = [];
      itemRows = [];
      await store.transaction(async (trx) => {
        for (const [table, rows] of batches) {
          // Under both stores' limits on bound parameters (SQLite 32,766; PostgreSQL 65,535).
          const chunk = Math.floor(30_000 / Math.max(1, Object.keys(rows[0] ?? {}).length));
          for (let i = 0; i < rows.length; i += chunk)
            await trx
              .insertInto(table)
              .values(rows.slice(i, i + chunk) as never)
              .execute();
        }
      });
    };

    const bar = new cliProgress.SingleBar(
      {
        format: 'pages |{bar}| {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted}',
        hideCursor: true,
        etaBuffer: 50,
        // Redirected to a file, the bar prints a line every 10 s instead of redrawing.
        noTTYOutput: true,
        notTTYSchedule: 10_000,
      },
      cliProgress.Presets.shades_classic,
    );
    const total = args.related + args.pages;
    bar.start(total, 0, { rate: 0 });
    const started = Date.now();
    const progress = () => {
      const made = counts.relatedPages + counts.pages;
      bar.update(made, { rate: Math.round(made / Math.max(0.001, (Date.now() - started) / 1000)) });
    };

    // Projects first, created over the last three years; tasks relate to them.
    const span = 3 * 365 * DAY;
    for (let i = 0; i < args.related; i++) {
      const trashed = random() < 0.03;
      const { id } = await addPage(
        projects,
        {
          [PROJECTS.title]: { title: text(`Project ${pick(CODENAMES)} ${i + 1}`) },
          [PROJECTS.select]: { select: { name: pickSkewed(CATEGORIES, 1.5) } },
          [PROJECTS.number]: { number: random() < 0.1 ? null : Math.round(random() * 500) * 1000 },
        },
        now - span + Math.floor((i / args.related) * span * 0.5),
        trashed,
      );
      projectIds.push(id);
      projectSet.add(id);
      counts.relatedPages++;
      if (trashed) counts.relatedTrashed++;
    }
    await flush();
    progress();

    // Tasks, created one after another over the last two years (a few in the same millisecond,
    // as an import makes them, so the id breaks ties); task i is created after task i - 1.
    const step = (2 * 365 * DAY) / args.pages;
    let createdMs = now - 2 * 365 * DAY;
    for (let i = 0; i < args.pages; i++) {
      if (random() >= 0.02) createdMs += Math.max(1, Math.floor(step * 2 * random()));
      const trashed = random() < 0.03;
      const notes = note();
      const { id } = await addPage(
        tasks,
        {
          [TASKS.title]: { title: text(taskTitle(i + 1)) },
          [TASKS.richText]: { rich_text: notes ? text(notes) : [] },
          [TASKS.number]: { number: random() < 0.05 ? null : Math.floor(random() * 1001) },
          [TASKS.checkbox]: { checkbox: random() < 0.3 },
          [TASKS.select]: { select: random() < 0.05 ? null : { name: pickSkewed(PRIORITIES) } },
          [TASKS.multiSelect]: { multi_select: some(TAGS, 3).map((name) => ({ name })) },
          [TASKS.status]: { status: { name: pickSkewed(STATUS_OPTIONS, 1.5).name } },
          [TASKS.date]: { date: due(now) },
          [TASKS.people]: { people: some(people, 2, 1.3).map((uid) => ({ id: uid })) },
          [TASKS.relation]: { relation: some(projectIds, 3, 2.5).map((pid) => ({ id: pid })) },
        },
        createdMs,
        trashed,
      );
      env.pages.delete(id);
      counts.pages++;
      if (trashed) counts.trashed++;
      if (counts.pages % args.batch === 0) {
        await flush();
        progress();
      }
    }
    await flush();
    progress();
    bar.stop();
    if (values.schemaChanged) throw new Error('a value created an option: the generator only uses options of the schema');

    process.stderr.write('refreshing statistics…\n');
    await optimizeSearchIndex(store.db);

    const manifest: DataSourceManifest = {
      store: store.dialect.name,
      dataDir: args.dataDir,
      workspaceId: workspace.id,
      generatedAt: new Date().toISOString(),
      seed: args.seed,
      connection: {
        id: issued.row.id,
        token: issued.token,
        userId: people[0],
        description: 'personal, read/update/insert; shared with both databases',
      },
      tasks: { databaseId: tasks.databaseId, dataSourceId: tasks.dataSourceId, properties: propertyIds(tasks.schema) },
      projects: { databaseId: projects.databaseId, dataSourceId: projects.dataSourceId, properties: propertyIds(projects.schema) },
      people,
      counts,
    };
    const out = args.out ?? path.join(args.dataDir, 'query-data-source.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
    process.stderr.write(`${JSON.stringify(counts)} in ${((Date.now() - started) / 1000).toFixed(0)} s; manifest: ${out}\n`);
    return manifest;
  } finally {
    await ctx.close();
  }
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('scripts', 'generateDataSource.ts'));
if (invokedDirectly) {
  generateDataSource(parse()).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/**
 * Generates a benchmark workspace for search (issue 4): N pages and data sources with realistic
 * titles, a teamspace/page/database hierarchy, some trash, some linked (duplicated) data sources,
 * and connections with different shares. It writes straight to the store (the same tables and
 * rows the repositories write, so the search index triggers run exactly as in production) with
 * multi-row inserts in large transactions, not over HTTP.
 *
 *   node --import tsx scripts/generateWorkspace.ts --pages 1000000 --data-dir /tmp/folio-search-1m
 *   DATABASE_URL=postgres://…/folio_search_bench node --import tsx scripts/generateWorkspace.ts --pages 200000
 *
 * The store follows DATABASE_URL like the server (unset: SQLite in --data-dir, a new temp dir by
 * default). The manifest (workspace, connection tokens, counts) is written as JSON to --out
 * (default <data dir>/search-workspace.json) for bench/search to read. Data never goes in the repo.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import cliProgress from 'cli-progress';
import { loadConfig } from '../src/config.js';
import { createCore } from '../src/core.js';
import type { Insertable } from 'kysely';
import type { NewObject, ObjectAncestorTable, ObjectKindColumn, ParentType, PropertyValueTable } from '../src/storage/schema.js';
import { createWorkspace } from '../src/commands/admin/workspaces.js';
import { createPerson } from '../src/commands/admin/users.js';
import { createConnection } from '../src/commands/admin/connections.js';
import { presentIssuedToken } from '../src/presenters/adminObjects.js';
import { insertGrant } from '../src/storage/repositories/grants.js';
import { optimizeSearchIndex } from '../src/storage/repositories/search.js';
import { newId } from '../src/ids/ids.js';
import { textItem } from '../src/domain/richText.js';

export interface WorkspaceManifest {
  store: 'sqlite' | 'postgres';
  dataDir: string;
  workspaceId: string;
  generatedAt: string;
  seed: number;
  counts: { pages: number; dataSources: number; linkedDataSources: number; databases: number; trashed: number };
  connections: Record<'wide' | 'narrow' | 'writeOnly', { id: string; token: string; description: string }>;
}

// ---- deterministic randomness -------------------------------------------------------------

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
/** Zipf-like: early entries are much more frequent, as words in real titles are. */
const pickSkewed = <T>(list: readonly T[]): T => list[Math.floor(random() ** 2.2 * list.length)];

// ---- titles ---------------------------------------------------------------------------------

const TEAMS = ['Engineering', 'Product', 'Design', 'Marketing', 'Sales', 'Operations', 'People', 'Finance', 'Legal', 'Support', 'Leadership', 'Data'];
const PEOPLE = ['Ada', 'Grace', 'Alan', 'Linus', 'Barbara', 'Edsger', 'Margaret', 'Dennis', 'Ken', 'Radia', 'Frances', 'John', 'Katherine', 'Tim', 'Sophie'];
const FEATURES = [
  'search',
  'onboarding',
  'billing',
  'notifications',
  'dark mode',
  'mobile app',
  'API rate limits',
  'permissions',
  'export to PDF',
  'calendar sync',
  'offline mode',
  'comments',
  'file uploads',
  'SSO',
  'audit log',
  'templates',
  'analytics dashboard',
  'webhooks',
  'checkout',
  'localization',
  'sharing dialog',
  'activity feed',
  'CSV import',
  'two-factor auth',
];
/** Code names: the rare end of the vocabulary (a handful of titles each). */
const PROJECTS = [
  'Atlas',
  'Beacon',
  'Compass',
  'Horizon',
  'Lighthouse',
  'Mercury',
  'Nimbus',
  'Orion',
  'Phoenix',
  'Quasar',
  'Sequoia',
  'Tidal',
  'Vega',
  'Zephyr',
  'Kestrel',
  'Obsidian',
];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Stark Industries', 'Wayne Enterprises', 'Hooli', 'Pied Piper', 'Soylent', 'Wonka'];
const PLATFORMS = ['iOS', 'Android', 'web', 'desktop', 'Safari', 'Windows'];
const SYMPTOMS = ['crashes', 'is slow', 'shows stale data', 'fails silently', 'times out', 'renders blank', 'double-charges'];
const SYSTEMS = ['API', 'database', 'search cluster', 'CDN', 'auth service', 'queue', 'payments'];
const VERBS = ['Update', 'Fix', 'Refactor', 'Document', 'Review', 'Migrate', 'Test', 'Ship', 'Design', 'Investigate'];
const EMOJI = ['📄', '📝', '🚀', '📅', '🐛', '💡', '✅', '📊', '🎯', '🔒'];

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function quarter(ms: number): string {
  const d = new Date(ms);
  return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()}`;
}

const TEMPLATES: Array<[number, (t: { team: string; ms: number }) => string]> = [
  [14, ({ team, ms }) => `Weekly sync — ${team} — ${isoDate(ms)}`],
  [10, ({ team, ms }) => `${team} standup notes ${isoDate(ms)}`],
  [9, () => `Meeting notes: ${pickSkewed(FEATURES)}`],
  [7, () => `1:1 ${pick(PEOPLE)} / ${pick(PEOPLE)}`],
  [6, ({ ms }) => `${quarter(ms)} planning: ${pickSkewed(FEATURES)}`],
  [5, () => `Design review: ${pickSkewed(FEATURES)}`],
  [4, () => `RFC: ${pickSkewed(FEATURES)}`],
  [8, () => `Bug: ${pickSkewed(FEATURES)} ${pick(SYMPTOMS)} on ${pick(PLATFORMS)}`],
  [1, ({ ms }) => `Postmortem: ${pick(SYSTEMS)} outage ${isoDate(ms)}`],
  [3, () => `Customer interview — ${pick(COMPANIES)}`],
  [3, () => `${pickSkewed(FEATURES)} roadmap`],
  [2, () => `Launch checklist: ${pickSkewed(FEATURES)}`],
  [1, () => `Onboarding checklist for ${pick(PEOPLE)}`],
  [5, () => `${pickSkewed(FEATURES)} spec v${1 + Math.floor(random() * 5)}`],
  [2, ({ ms }) => `Retro: ${pickSkewed(FEATURES)} ${quarter(ms)}`],
  [4, ({ team }) => `Idea: ${pickSkewed(FEATURES)} for ${team}`],
  [14, () => `${pick(VERBS)} ${pickSkewed(FEATURES)}`],
  [1, ({ ms, team }) => `Hiring plan ${new Date(ms).getUTCFullYear()} — ${team}`],
];
const TEMPLATE_WEIGHT = TEMPLATES.reduce((sum, [w]) => sum + w, 0);

function makeTitle(team: string, ms: number): string {
  let roll = random() * TEMPLATE_WEIGHT;
  let title = '';
  for (const [weight, template] of TEMPLATES) {
    roll -= weight;
    if (roll < 0) {
      title = template({ team, ms });
      break;
    }
  }
  // A code name in about one title in 400, each name in a handful of titles per thousand.
  if (random() < 0.0025) title = `Project ${pickSkewed(PROJECTS)}: ${title}`;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

const DATABASE_NAMES = ['Tasks', 'Meeting notes', 'Docs', 'Roadmap', 'Bugs', 'Interviews', 'OKRs', 'Wiki', 'Decisions', 'Projects'];

// ---- the tree -------------------------------------------------------------------------------

interface Team {
  name: string;
  rootId: string;
  /** Pages that may hold subpages and databases, with their depth. */
  containers: Array<{ id: string; depth: number }>;
  sources: string[];
}

const STATUS_OPTIONS = [
  { id: 'opt-todo', name: 'Not started', color: 'gray' },
  { id: 'opt-doing', name: 'In progress', color: 'blue' },
  { id: 'opt-done', name: 'Done', color: 'green' },
];

function sourceSchema(): Record<string, unknown> {
  return {
    title: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
    'stat%3A': {
      id: 'stat%3A',
      name: 'Status',
      description: null,
      type: 'select',
      select: { options: STATUS_OPTIONS.map((o) => ({ ...o, description: null })) },
    },
    'due%3A': { id: 'due%3A', name: 'Due', description: null, type: 'date', date: {} },
  };
}

export interface GenerateOptions {
  pages: number;
  dataDir: string;
  out: string | null;
  seed: number;
  batch: number;
}

function parse(): GenerateOptions {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '100000' },
      'data-dir': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '42' },
      batch: { type: 'string', default: '5000' },
    },
  });
  const pages = Number(values.pages);
  if (!Number.isInteger(pages) || pages < 100) throw new Error(`--pages must be an integer ≥ 100, instead was "${values.pages}"`);
  return {
    pages,
    dataDir: values['data-dir'] ? path.resolve(values['data-dir']) : fs.mkdtempSync(path.join(os.tmpdir(), 'folio-search-workspace-')),
    out: values.out ? path.resolve(values.out) : null,
    seed: Number(values.seed) || 42,
    batch: Math.max(100, Number(values.batch) || 5000),
  };
}

export async function generateWorkspace(args: GenerateOptions): Promise<WorkspaceManifest> {
  random = mulberry32(args.seed);
  const config = loadConfig({ ...process.env, FOLIO_DATA_DIR: args.dataDir, FOLIO_LOG_LEVEL: 'silent' });
  const ctx = await createCore(config);
  const { store } = ctx;
  // A bulk load touches index pages all over a large file: a big page cache keeps them in memory.
  if (store.dialect.name === 'sqlite') await sql`PRAGMA cache_size = -1000000`.execute(store.db);
  try {
    const workspace = await createWorkspace(ctx, { name: `Search bench (${args.pages.toLocaleString('en')} pages)` });
    const people: string[] = [];
    for (const name of PEOPLE) {
      const person = await createPerson(ctx, workspace.id, { name, email: `${name.toLowerCase()}@bench.example` });
      people.push(String(person.id));
    }
    const capabilities = ['read_content', 'update_content', 'insert_content', 'user_info_with_email'];
    const wide = presentIssuedToken(await createConnection(ctx, workspace.id, { name: 'Bench wide', kind: 'internal', capabilities }));
    const narrow = presentIssuedToken(await createConnection(ctx, workspace.id, { name: 'Bench narrow', kind: 'internal', capabilities }));
    const writeOnly = presentIssuedToken(
      await createConnection(ctx, workspace.id, { name: 'Bench insert only', kind: 'internal', capabilities: ['insert_content'] }),
    );

    const now = Date.now();
    const span = 3 * 365 * 24 * 3600 * 1000;
    const positions = new Map<string, number>();
    const trashedIds = new Set<string>();
    const counts = { pages: 0, dataSources: 0, linkedDataSources: 0, databases: 0, trashed: 0 };

    const row = (input: {
      object: ObjectKindColumn;
      parentType: ParentType;
      parentId: string | null;
      title: string;
      content: unknown;
      trashed?: boolean;
    }): NewObject & { id: string } => {
      const createdMs = now - Math.floor(random() ** 1.5 * span);
      // Most pages are edited soon after creation; some much later.
      const editedMs = createdMs + Math.floor(random() ** 4 * (now - createdMs));
      const author = pick(people);
      const inherited = input.parentId !== null && trashedIds.has(input.parentId);
      const inTrash = inherited || input.trashed === true;
      const id = newId();
      if (inTrash) trashedIds.add(id);
      const key = input.parentId ?? 'workspace';
      const position = positions.get(key) ?? 0;
      positions.set(key, position + 1);
      return {
        id,
        workspace_id: workspace.id,
        object: input.object,
        type: null,
        parent_type: input.parentType,
        parent_id: input.parentId,
        position,
        title: input.title,
        content: JSON.stringify(input.content),
        in_trash: inTrash ? 1 : 0,
        trashed: input.trashed ? 1 : 0,
        is_locked: 0,
        is_archived: 0,
        created_time: new Date(createdMs).toISOString(),
        created_by: author,
        last_edited_time: new Date(editedMs).toISOString(),
        last_edited_by: random() < 0.7 ? author : pick(people),
      };
    };

    const pageContent = () => ({ icon: random() < 0.2 ? { type: 'emoji', emoji: pick(EMOJI) } : null, cover: null });

    const bar = new cliProgress.SingleBar(
      {
        format: 'pages and data sources |{bar}| {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted}',
        hideCursor: true,
        etaBuffer: 50,
        // Redirected to a file, the bar prints a line every 10 s instead of redrawing.
        noTTYOutput: true,
        notTTYSchedule: 10_000,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(args.pages, 0, { rate: 0 });
    const started = Date.now();
    let made = 0;
    const teams: Team[] = [];
    let narrowGrant: string | null = null;

    // Rows are buffered and written by multi-row inserts: one statement per thousand rows instead
    // of several per page (the closure rows come from `lineage`, the ancestor chain of each
    // object that may get children, so nothing needs reading back).
    const lineage = new Map<string, string[]>();
    let objects: NewObject[] = [];
    let closure: Insertable<ObjectAncestorTable>[] = [];
    let values: Insertable<PropertyValueTable>[] = [];

    const place = (object: NewObject & { id: string }): string[] => {
      const chain = [...(object.parent_id ? (lineage.get(object.parent_id) ?? []) : []), object.id];
      objects.push(object);
      chain.forEach((ancestor, i) => closure.push({ ancestor_id: ancestor, descendant_id: object.id, depth: chain.length - 1 - i }));
      return chain;
    };

    const addPage = (parentType: ParentType, parentId: string | null, title: string, options: { trashed?: boolean; sourceId?: string } = {}) => {
      const page = row({ object: 'page', parentType, parentId, title, content: pageContent(), trashed: options.trashed });
      const chain = place(page);
      values.push({
        page_id: page.id,
        property_id: 'title',
        data_source_id: options.sourceId ?? null,
        value: JSON.stringify({ type: 'title', title: [textItem(title)] }),
        text_value: title,
      });
      if (options.sourceId) {
        const status = pick(STATUS_OPTIONS);
        values.push({
          page_id: page.id,
          property_id: 'stat%3A',
          data_source_id: options.sourceId,
          value: JSON.stringify({ type: 'select', select: status }),
          text_value: status.name,
        });
        const due = isoDate(Date.parse(page.created_time) + Math.floor(random() * 60) * 86400000);
        values.push({
          page_id: page.id,
          property_id: 'due%3A',
          data_source_id: options.sourceId,
          value: JSON.stringify({ type: 'date', date: { start: due, end: null, time_zone: null } }),
          date_start: due,
        });
      }
      counts.pages++;
      if (page.in_trash) counts.trashed++;
      return { page, chain };
    };

    const addDatabase = (team: Team, parentId: string, name: string, linked: boolean) => {
      const title = [textItem(name)];
      const database = row({
        object: 'database',
        parentType: 'page_id',
        parentId,
        title: name,
        content: { title, description: [], icon: null, cover: null, is_inline: random() < 0.5 },
      });
      lineage.set(database.id, place(database));
      counts.databases++;
      const source = row({
        object: 'data_source',
        parentType: 'database_id',
        parentId: database.id,
        title: name,
        // `linked: true` marks a linked (duplicated) view of another source: search leaves it out.
        content: { title, description: [], icon: null, properties: sourceSchema(), ...(linked ? { linked: true } : {}) },
      });
      lineage.set(source.id, place(source));
      if (linked) counts.linkedDataSources++;
      else {
        counts.dataSources++;
        if (!source.in_trash) team.sources.push(source.id);
      }
    };

    const generate = (size: number) => {
      for (let i = 0; i < size; i++) {
        if (teams.length < TEAMS.length) {
          const name = TEAMS[teams.length];
          const { page: root, chain } = addPage('workspace', null, name);
          lineage.set(root.id, chain);
          teams.push({ name, rootId: root.id, containers: [{ id: root.id, depth: 0 }], sources: [] });
          continue;
        }
        // Teams differ in size: the first ones hold most of the workspace.
        const team = teams[Math.floor(random() ** 1.6 * teams.length)];
        const roll = random();
        if (roll < 0.006 || team.sources.length === 0) {
          const parent = pick(team.containers);
          const name = `${team.name} ${pick(DATABASE_NAMES)}${random() < 0.3 ? ` ${new Date(now).getUTCFullYear() - Math.floor(random() * 3)}` : ''}`;
          addDatabase(team, parent.id, name, false);
          if (random() < 0.05) addDatabase(team, pick(team.containers).id, name, true);
          continue;
        }
        const when = now - Math.floor(random() ** 1.5 * span);
        if (roll < 0.65) {
          // A database row: most pages of a real workspace are.
          const sourceId = team.sources[team.sources.length - 1 - Math.floor(random() ** 2 * team.sources.length)];
          addPage('data_source_id', sourceId, makeTitle(team.name, when), { sourceId });
          continue;
        }
        const parent = team.containers[Math.floor(random() ** 0.7 * team.containers.length)];
        const { page, chain } = addPage('page_id', parent.id, makeTitle(team.name, when), { trashed: random() < 0.01 });
        if (parent.depth < 6 && !page.in_trash) {
          team.containers.push({ id: page.id, depth: parent.depth + 1 });
          lineage.set(page.id, chain);
        }
        if (!narrowGrant && team.name === 'Support' && parent.depth === 0) narrowGrant = page.id;
      }
    };

    const CHUNK = 1000;
    const flush = async () => {
      const [o, c, v] = [objects, closure, values];
      objects = [];
      closure = [];
      values = [];
      await store.transaction(async (trx) => {
        for (let i = 0; i < o.length; i += CHUNK)
          await trx
            .insertInto('objects')
            .values(o.slice(i, i + CHUNK))
            .execute();
        for (let i = 0; i < c.length; i += CHUNK)
          await trx
            .insertInto('object_ancestors')
            .values(c.slice(i, i + CHUNK))
            .execute();
        for (let i = 0; i < v.length; i += CHUNK)
          await trx
            .insertInto('property_values')
            .values(v.slice(i, i + CHUNK))
            .execute();
      });
    };

    while (made < args.pages) {
      generate(Math.min(args.batch, args.pages - made));
      await flush();
      made = counts.pages + counts.dataSources;
      bar.update(Math.min(made, args.pages), { rate: Math.round(made / ((Date.now() - started) / 1000)) });
    }
    bar.stop();

    // wide: two thirds of the teams (most of the workspace); narrow: one page and its subtree.
    const at = new Date(now).toISOString();
    for (const team of teams.slice(0, 8)) await insertGrant(store.db, wide.id, team.rootId, at);
    await insertGrant(store.db, narrow.id, narrowGrant ?? teams[teams.length - 1].rootId, at);
    process.stderr.write('optimizing the search index and refreshing statistics…\n');
    await optimizeSearchIndex(store.db);

    const manifest: WorkspaceManifest = {
      store: store.dialect.name,
      dataDir: args.dataDir,
      workspaceId: workspace.id,
      generatedAt: new Date().toISOString(),
      seed: args.seed,
      counts,
      connections: {
        wide: { id: wide.id, token: wide.token, description: 'internal, read/update/insert; shared with 8 of 12 teamspaces' },
        narrow: { id: narrow.id, token: narrow.token, description: 'internal, read/update/insert; shared with one Support page and its subtree' },
        writeOnly: { id: writeOnly.id, token: writeOnly.token, description: 'internal, insert content only; no share' },
      },
    };
    const out = args.out ?? path.join(args.dataDir, 'search-workspace.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
    process.stderr.write(`${JSON.stringify(counts)} in ${((Date.now() - started) / 1000).toFixed(0)} s; manifest: ${out}\n`);
    return manifest;
  } finally {
    await ctx.close();
  }
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('scripts', 'generateWorkspace.ts'));
if (invokedDirectly) {
  generateWorkspace(parse()).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

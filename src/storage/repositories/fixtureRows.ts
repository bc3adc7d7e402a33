import { sql, type Insertable } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../dialect.js';
import type { DB } from '../schema.js';

/** Ids per lookup statement: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const CHUNK = 500;
/** Rows per bulk insert: one JSON parameter each, kept to a few megabytes. */
const INSERT_CHUNK = 5_000;

/** Tables an import writes, in an order that satisfies their references. */
export const FIXTURE_TABLES = [
  'workspaces',
  'users',
  'connections',
  'objects',
  'object_ancestors',
  'grants',
  'property_values',
  'property_value_items',
  'comments',
  'file_uploads',
  'file_blobs',
  'custom_emojis',
  'data_source_templates',
  'database_views',
] as const satisfies readonly (keyof DB)[];
export type FixtureTable = (typeof FIXTURE_TABLES)[number];

/**
 * Inserts many rows of one table, a few thousand per statement as one JSON parameter
 * (Dialect.rowsFromJson); `onRows` hears how many each wrote. Every row has the first row's columns.
 */
export async function insertMany<T extends FixtureTable>(
  db: Db,
  table: T,
  rows: readonly Insertable<DB[T]>[],
  onRows?: (count: number) => void,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK) as readonly Record<string, unknown>[];
    await sql`INSERT INTO ${sql.id(table)} (${sql.join(columns.map((c) => sql.id(c)))}) ${dialectOf(db).rowsFromJson(table, columns, chunk)}`.execute(db);
    onRows?.(chunk.length);
  }
}

/** Which of `ids` a table already holds (an import refuses to overwrite). */
export async function existingIds(
  db: Db,
  table: 'workspaces' | 'users' | 'connections' | 'objects' | 'comments' | 'file_uploads' | 'custom_emojis' | 'database_views',
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Which of the token hashes a connection already holds: two connections cannot share a token. */
export async function existingTokenHashes(db: Db, hashes: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const rows = await db
      .selectFrom('connections')
      .select('token_hash')
      .where('token_hash', 'in', hashes.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.add(row.token_hash);
  }
  return found;
}

/** Everything an export of one workspace reads, each table in a stable order. */
export async function loadWorkspaceRows(db: Db, workspaceId: string) {
  const objects = db.selectFrom('objects').select('id').where('workspace_id', '=', workspaceId);
  const connections = db.selectFrom('connections').select('id').where('workspace_id', '=', workspaceId);
  const uploads = db.selectFrom('file_uploads').select('id').where('workspace_id', '=', workspaceId);
  return {
    users: await db.selectFrom('users').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_time').orderBy('id').execute(),
    connections: await db.selectFrom('connections').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_time').orderBy('id').execute(),
    grants: await db.selectFrom('grants').selectAll().where('connection_id', 'in', connections).orderBy('connection_id').orderBy('object_id').execute(),
    objects: await db
      .selectFrom('objects')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('position')
      .orderBy('created_time')
      .orderBy('id')
      .execute(),
    values: await db
      .selectFrom('property_values')
      .select(['page_id', 'property_id', 'value'])
      .where('page_id', 'in', objects)
      .orderBy('page_id')
      .orderBy('property_id')
      .execute(),
    comments: await db.selectFrom('comments').selectAll().where('workspace_id', '=', workspaceId).orderBy('parent_id').orderBy('position').execute(),
    uploads: await db.selectFrom('file_uploads').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_time').orderBy('id').execute(),
    blobs: await db
      .selectFrom('file_blobs')
      .selectAll()
      .where('upload_id', 'in', uploads)
      .where('state', '=', 'stored')
      .orderBy('upload_id')
      .orderBy('part_number')
      .execute(),
    emojis: await db.selectFrom('custom_emojis').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').execute(),
    templates: await db
      .selectFrom('data_source_templates')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('data_source_id')
      .orderBy('page_id')
      .execute(),
    views: await db
      .selectFrom('database_views')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('database_id')
      .orderBy('dashboard_view_id')
      .orderBy('position')
      .orderBy('id')
      .execute(),
  };
}
export type WorkspaceRows = Awaited<ReturnType<typeof loadWorkspaceRows>>;

import { dialectOf } from '../dialect.js';
import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { NewObject, ObjectRow } from '../schema.js';
import { fixedStatement } from '../fixedStatement.js';

/** Every column of `objects`, so that an insert has one shape whatever the row leaves to its default. */
const OBJECT_COLUMNS = [
  'id',
  'workspace_id',
  'object',
  'type',
  'parent_type',
  'parent_id',
  'position',
  'title',
  'content',
  'in_trash',
  'trashed',
  'is_locked',
  'is_archived',
  'created_time',
  'created_by',
  'last_edited_time',
  'last_edited_by',
] as const satisfies readonly (keyof ObjectRow)[];

/** One object row, every column given. */
export const insertObjectRow = fixedStatement((db, row: ObjectRow) =>
  db.insertInto('objects').values(Object.fromEntries(OBJECT_COLUMNS.map((column) => [column, row[column]])) as ObjectRow),
);

const objectById = fixedStatement((db, args: { id: string }) => db.selectFrom('objects').selectAll().where('id', '=', args.id));

const lastPosition = fixedStatement((db, args: { parentId: string }) =>
  db
    .selectFrom('objects')
    .select(sql<number | null>`max(position)`.as('max'))
    .where('parent_id', '=', args.parentId),
);

/**
 * Inserts an object and its rows in the ancestor closure (itself at depth 0, then every ancestor
 * of its parent one level further), so sharing and trash checks are one indexed join.
 */
export async function insertObject(db: Db, row: NewObject): Promise<void> {
  // The nullable columns may be left out of a new row: the builder would have left them NULL.
  await insertObjectRow.run(db, { ...row, type: row.type ?? null, parent_id: row.parent_id ?? null });
  // One statement for the object's own row and its parent's chain (none without a parent: nothing
  // equals NULL): each statement costs its overhead and its search-scope trigger's run.
  await sql`INSERT INTO object_ancestors (ancestor_id, descendant_id, depth)
    SELECT ${row.id}, ${row.id}, 0
    UNION ALL
    SELECT ancestor_id, ${row.id}, depth + 1 FROM object_ancestors WHERE descendant_id = ${row.parent_id}`.execute(db);
}

export async function findObject(db: Db, id: string): Promise<ObjectRow | undefined> {
  return objectById.first(db, { id });
}

/** The row as last committed, locked until the transaction ends (Dialect.rowLock says why). */
export async function findObjectForUpdate(db: Db, id: string): Promise<ObjectRow | undefined> {
  return db.selectFrom('objects').selectAll().where('id', '=', id).modifyEnd(dialectOf(db).rowLock).executeTakeFirst();
}

/** Next free sibling position under a parent: appends go last. */
export async function nextPosition(db: Db, parentId: string | null): Promise<number> {
  if (!parentId) return 0;
  const row = await lastPosition.first(db, { parentId });
  return row?.max == null ? 0 : Number(row.max) + 1;
}

/** The page an object under blocks sits in: its nearest page ancestor. */
export async function findEnclosingPage(db: Db, row: ObjectRow): Promise<string | null> {
  if (row.parent_type !== 'block_id') return null;
  const found = await db
    .selectFrom('object_ancestors as a')
    .innerJoin('objects as o', 'o.id', 'a.ancestor_id')
    .select('o.id')
    .where('a.descendant_id', '=', row.id)
    .where('a.depth', '>', 0)
    .where('o.object', '=', 'page')
    .orderBy('a.depth')
    .limit(1)
    .executeTakeFirst();
  return found?.id ?? null;
}

export type SchemaSourceRow = Pick<ObjectRow, 'id' | 'parent_id' | 'content'>;

/** Data sources as a page's presentation needs them: the schema (in content) and the database. */
export async function findSchemaSources(db: Db, ids: readonly string[]): Promise<SchemaSourceRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('objects')
    .select(['id', 'parent_id', 'content'])
    .where(dialectOf(db).inTextArray('id', [...new Set(ids)]))
    .where('object', '=', 'data_source')
    .execute();
}

export async function findObjects(db: Db, ids: readonly string[]): Promise<ObjectRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('objects')
    .selectAll()
    .where(dialectOf(db).inTextArray('id', [...new Set(ids)]))
    .execute();
}

export async function listPagesOf(db: Db, dataSourceId: string): Promise<ObjectRow[]> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('parent_type', '=', 'data_source_id')
    .where('parent_id', '=', dataSourceId)
    .where('object', '=', 'page')
    .orderBy('created_time')
    .orderBy('id')
    .execute();
}

/** The ids of a data source's pages, in the trash or not. */
export async function listPageIdsOf(db: Db, dataSourceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('objects')
    .select('id')
    .where('parent_type', '=', 'data_source_id')
    .where('parent_id', '=', dataSourceId)
    .where('object', '=', 'page')
    .execute();
  return rows.map((r) => r.id);
}

export async function listDataSourcesOf(db: Db, databaseId: string): Promise<ObjectRow[]> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('parent_type', '=', 'database_id')
    .where('parent_id', '=', databaseId)
    .where('object', '=', 'data_source')
    .orderBy('position')
    .orderBy('created_time')
    .execute();
}

/** Data sources of a workspace whose schema mentions `id` (relations and rollups pointing at it). */
export async function dataSourcesMentioning(db: Db, workspaceId: string, id: string): Promise<ObjectRow[]> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('object', '=', 'data_source')
    .where('content', 'like', `%${id}%`)
    .execute();
}

/**
 * Takes the row's write lock before its content is read and rewritten: on PostgreSQL a concurrent
 * writer waits here and then reads the committed content, so schema changes (options created by
 * page values, unique id counters) are never lost. SQLite has a single writer already.
 */
export async function lockRow(db: Db, id: string): Promise<void> {
  await db
    .updateTable('objects')
    .set((eb) => ({ position: eb.ref('position') }))
    .where('id', '=', id)
    .execute();
}

export async function writeObjectContent(db: Db, id: string, content: unknown, edit?: { at: string; by: string; title?: string }): Promise<void> {
  await db
    .updateTable('objects')
    .set({
      content: JSON.stringify(content),
      ...(edit ? { last_edited_time: edit.at, last_edited_by: edit.by } : {}),
      ...(edit?.title !== undefined ? { title: edit.title } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function touchObject(db: Db, id: string, at: string, by: string): Promise<void> {
  await db.updateTable('objects').set({ last_edited_time: at, last_edited_by: by }).where('id', '=', id).execute();
}
export type ObjectChanges = Partial<Pick<ObjectRow, 'title' | 'content' | 'is_locked' | 'is_archived' | 'last_edited_time' | 'last_edited_by'>>;

export async function updateObject(db: Db, id: string, changes: ObjectChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('objects').set(changes).where('id', '=', id).execute();
}

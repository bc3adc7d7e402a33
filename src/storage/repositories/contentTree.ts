import type { Db } from '../db.js';
import type { ObjectRow } from '../schema.js';
import { CHILD_OBJECTS } from './blocks.js';

/** Parameters per statement kept well under SQLite's and PostgreSQL's bind limits. */
const CHUNK = 500;

/** The listed children of many parents at once, in each parent's order (position, then id): one level of a page's tree. */
export async function listChildrenOfMany(db: Db, parentIds: readonly string[]): Promise<ObjectRow[]> {
  const rows: ObjectRow[] = [];
  for (let i = 0; i < parentIds.length; i += CHUNK) {
    rows.push(
      ...(await db
        .selectFrom('objects')
        .selectAll()
        .where('parent_id', 'in', parentIds.slice(i, i + CHUNK))
        .where('object', 'in', CHILD_OBJECTS)
        .where('trashed', '=', 0)
        .orderBy('parent_id')
        .orderBy('position')
        .orderBy('id')
        .execute()),
    );
  }
  return rows;
}

/** Sets the order of a parent's children: each id gets its index (ids not listed keep theirs). */
export async function setChildPositions(db: Db, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i++) await db.updateTable('objects').set({ position: i }).where('id', '=', ids[i]).execute();
}

/**
 * A keyset page of the pages and databases directly under `parentId` (the workspace's top level
 * when null), in sibling order, trashed ones included: the console's tree (objects_children_ordered index, migration 015).
 */
export async function listContentChildren(
  db: Db,
  workspaceId: string,
  parentId: string | null,
  after: { position: number; id: string } | null,
  limit: number,
): Promise<ObjectRow[]> {
  let query = db.selectFrom('objects').selectAll().where('workspace_id', '=', workspaceId).where('object', 'in', ['page', 'database']);
  query = parentId === null ? query.where('parent_id', 'is', null) : query.where('parent_id', '=', parentId);
  // A row-value comparison, which both stores seek in an index on (parent_id, position, id); with
  // today's (parent_id, position) a level's rows are sorted per page (docs/benchmarks.md, "Console").
  if (after) query = query.where((eb) => eb(eb.refTuple('position', 'id'), '>', eb.tuple(after.position, after.id)));
  return query.orderBy('position').orderBy('id').limit(limit).execute();
}

/** A keyset page (by id) of a workspace's meeting notes blocks (objects_meeting_notes index). */
export async function listMeetingNotesBlocks(db: Db, workspaceId: string, afterId: string | null, limit: number): Promise<ObjectRow[]> {
  let query = db.selectFrom('objects').selectAll().where('type', '=', 'meeting_notes').where('workspace_id', '=', workspaceId);
  if (afterId) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

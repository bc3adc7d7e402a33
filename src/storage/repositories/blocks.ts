import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { ObjectAncestorTable, ObjectRow } from '../../storage/schema.js';
import { fixedStatement } from '../fixedStatement.js';
import { dialectOf } from '../dialect.js';
import { insertObjectRow } from './objects.js';

/**
 * The block queries. Content is one tree in `objects`: a page's or block's children are the
 * blocks, pages (child_page) and databases (child_database) whose parent_id it is, ordered by
 * position; data sources hang under their database but are not blocks. A child trashed on its own
 * leaves the listing (and stops counting for has_children); one trashed with its parent stays.
 */
export const CHILD_OBJECTS = ['block', 'page', 'database'] as const;

export interface ChildCursor {
  position: number;
  id: string;
}

export async function listChildRows(db: Db, parentId: string, after: ChildCursor | null, limit: number): Promise<ObjectRow[]> {
  let query = db.selectFrom('objects').selectAll().where('parent_id', '=', parentId).where('object', 'in', CHILD_OBJECTS).where('trashed', '=', 0);
  if (after) {
    query = query.where((eb) => eb.or([eb('position', '>', after.position), eb.and([eb('position', '=', after.position), eb('id', '>', after.id)])]));
  }
  return query.orderBy('position').orderBy('id').limit(limit).execute();
}

/**
 * Which of `ids` have at least one listed child, one probe per parent that stops at its first live
 * child: a DISTINCT over the children read every child of every parent, so presenting a block cost
 * more the more children it had. The list is one parameter, so the statement is built once.
 */
const withListedChildren = fixedStatement((db, args: { ids: unknown }) =>
  db
    .selectFrom('objects as p')
    .select('p.id')
    .where(dialectOf(db).inTextList('p.id', args.ids))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('objects as c')
          .select(sql`1`.as('one'))
          .whereRef('c.parent_id', '=', 'p.id')
          .where('c.object', 'in', CHILD_OBJECTS)
          .where('c.trashed', '=', 0),
      ),
    ),
);

/** Which of `parentIds` have at least one listed child: has_children for a whole page of blocks in one query. */
export async function parentsWithChildren(db: Db, parentIds: readonly string[]): Promise<Set<string>> {
  if (parentIds.length === 0) return new Set();
  const rows = await withListedChildren.rows(db, { ids: dialectOf(db).textList([...new Set(parentIds)]) });
  return new Set(rows.map((r) => r.id));
}

/** A listed child of `parentId` (what `position.after_block` may name). */
export async function findListedChild(db: Db, parentId: string, childId: string): Promise<ObjectRow | undefined> {
  return db
    .selectFrom('objects')
    .selectAll()
    .where('id', '=', childId)
    .where('parent_id', '=', parentId)
    .where('object', 'in', CHILD_OBJECTS)
    .where('trashed', '=', 0)
    .executeTakeFirst();
}

export async function childPositionRange(db: Db, parentId: string): Promise<{ min: number; max: number } | null> {
  // Two scalar subqueries, not min() and max() in one select: SQLite answers a lone min() or max()
  // with one seek on objects_children_ordered, but both together by reading every child, which
  // made appending to a page cost more the longer the page grew (the prism bench: 229 → 128
  // appends/s, p99 1.7 → 5.8 s, over three rounds of appends to one page).
  const { rows } = await sql<{ min: number | null; max: number | null }>`SELECT
      (SELECT min(position) FROM objects WHERE parent_id = ${parentId}) AS min,
      (SELECT max(position) FROM objects WHERE parent_id = ${parentId}) AS max`.execute(db);
  const row = rows[0];
  return row && row.min !== null && row.max !== null ? { min: Number(row.min), max: Number(row.max) } : null;
}

/** Opens a gap of `by` positions at `from` among the children of `parentId`. */
export async function shiftChildren(db: Db, parentId: string, from: number, by: number): Promise<void> {
  await db
    .updateTable('objects')
    .set({ position: sql<number>`position + ${by}` })
    .where('parent_id', '=', parentId)
    .where('position', '>=', from)
    .execute();
}

const ancestorsOf = fixedStatement((db, args: { id: string }) =>
  db.selectFrom('object_ancestors').select(['ancestor_id', 'depth']).where('descendant_id', '=', args.id),
);

export async function loadAncestors(db: Db, id: string): Promise<{ ancestor_id: string; depth: number }[]> {
  return ancestorsOf.rows(db, { id });
}

/** Rows per statement: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const CHUNK = 500;

/** Inserts many rows and their closure rows with a few multi-row statements. */
export async function insertRows(db: Db, rows: readonly ObjectRow[], closure: readonly ObjectAncestorTable[]): Promise<void> {
  // One block, the common append, by the statement built once; more, by multi-row statements.
  if (rows.length === 1) await insertObjectRow.run(db, rows[0]);
  else
    for (let i = 0; i < rows.length; i += CHUNK)
      await db
        .insertInto('objects')
        .values(rows.slice(i, i + CHUNK))
        .execute();
  // Written as SQL: three values a row cost the builder more than the statement took to run.
  for (let i = 0; i < closure.length; i += CHUNK * 4)
    await sql`INSERT INTO object_ancestors (ancestor_id, descendant_id, depth) VALUES ${sql.join(
      closure.slice(i, i + CHUNK * 4).map((c) => sql`(${c.ancestor_id}, ${c.descendant_id}, ${c.depth})`),
    )}`.execute(db);
}

export async function saveContent(db: Db, id: string, content: string, actorId: string, at: string): Promise<void> {
  await db.updateTable('objects').set({ content, last_edited_time: at, last_edited_by: actorId }).where('id', '=', id).execute();
}

/** The list of ids is one parameter, so the statement is built once whatever its length. */
const touchEach = fixedStatement((db, args: { ids: unknown; actorId: string; at: string }) =>
  db.updateTable('objects').set({ last_edited_time: args.at, last_edited_by: args.actorId }).where(dialectOf(db).inTextList('id', args.ids)),
);

/** Marks objects edited. On PostgreSQL this also locks their rows until the transaction ends. */
export async function touchObjects(db: Db, ids: readonly string[], actorId: string, at: string): Promise<void> {
  if (ids.length === 0) return;
  await touchEach.run(db, { ids: dialectOf(db).textList(ids), actorId, at });
}

/** The nearest page at or above `id`: the page whose content a block is. */
export async function findContainingPage(db: Db, id: string): Promise<ObjectRow | undefined> {
  return db
    .selectFrom('object_ancestors as a')
    .innerJoin('objects as o', 'o.id', 'a.ancestor_id')
    .selectAll('o')
    .where('a.descendant_id', '=', id)
    .where('o.object', '=', 'page')
    .orderBy('a.depth')
    .limit(1)
    .executeTakeFirst();
}

/** Content edits are edits of the page that holds them: marks the nearest page at or above `id`. */
export async function touchPageOf(db: Db, id: string, actorId: string, at: string): Promise<void> {
  await db
    .updateTable('objects')
    .set({ last_edited_time: at, last_edited_by: actorId })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('object_ancestors as a')
        .innerJoin('objects as o', 'o.id', 'a.ancestor_id')
        .select('a.ancestor_id')
        .where('a.descendant_id', '=', id)
        .where('o.object', '=', 'page')
        .orderBy('a.depth')
        .limit(1),
    )
    .execute();
}

import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { NewObject, ObjectRow } from '../schema.js';

/**
 * Inserts an object and its rows in the ancestor closure (itself at depth 0, then every ancestor
 * of its parent one level further), so sharing and trash checks are one indexed join.
 */
export async function insertObject(db: Db, row: NewObject): Promise<void> {
  await db.insertInto('objects').values(row).execute();
  await db.insertInto('object_ancestors').values({ ancestor_id: row.id, descendant_id: row.id, depth: 0 }).execute();
  if (row.parent_id) {
    await db
      .insertInto('object_ancestors')
      .columns(['ancestor_id', 'descendant_id', 'depth'])
      .expression((eb) =>
        eb
          .selectFrom('object_ancestors')
          .select(['ancestor_id', sql.val(row.id).as('descendant_id'), sql<number>`depth + 1`.as('depth')])
          .where('descendant_id', '=', row.parent_id!),
      )
      .execute();
  }
}

export async function findObject(db: Db, id: string): Promise<ObjectRow | undefined> {
  return db.selectFrom('objects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Next free sibling position under a parent: appends go last. */
export async function nextPosition(db: Db, parentId: string | null): Promise<number> {
  if (!parentId) return 0;
  const row = await db
    .selectFrom('objects')
    .select(sql<number | null>`max(position)`.as('max'))
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
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

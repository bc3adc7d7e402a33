import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { CommentRow } from '../schema.js';

export async function insertComment(db: Db, row: CommentRow): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

export async function findComment(db: Db, id: string): Promise<CommentRow | undefined> {
  return db.selectFrom('comments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first comment of a discussion: where a reply goes (a discussion has no row of its own). */
export async function findDiscussionStart(db: Db, discussionId: string): Promise<CommentRow | undefined> {
  return db.selectFrom('comments').selectAll().where('discussion_id', '=', discussionId).orderBy('position').orderBy('id').limit(1).executeTakeFirst();
}

/** The position after the last comment on an object. */
export async function nextCommentPosition(db: Db, parentId: string): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .select(sql<number | null>`max(position)`.as('max'))
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  return row?.max == null ? 0 : Number(row.max) + 1;
}

export interface CommentCursor {
  position: number;
  id: string;
}

/** One keyset page of the comments on an object, oldest first. */
export async function listCommentsOf(db: Db, parentId: string, after: CommentCursor | null, limit: number): Promise<CommentRow[]> {
  let query = db.selectFrom('comments').selectAll().where('parent_id', '=', parentId);
  if (after) {
    query = query.where((eb) => eb.or([eb('position', '>', after.position), eb.and([eb('position', '=', after.position), eb('id', '>', after.id)])]));
  }
  return query.orderBy('position').orderBy('id').limit(limit).execute();
}

export async function updateCommentText(db: Db, id: string, richText: string, at: string): Promise<void> {
  await db.updateTable('comments').set({ rich_text: richText, last_edited_time: at }).where('id', '=', id).execute();
}

export async function removeComment(db: Db, id: string): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}

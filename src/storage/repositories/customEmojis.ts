import type { Insertable } from 'kysely';
import type { Db } from '../db.js';
import type { CustomEmojiRow, CustomEmojiTable } from '../schema.js';

export async function insertCustomEmoji(db: Db, row: Insertable<CustomEmojiTable>): Promise<void> {
  await db.insertInto('custom_emojis').values(row).execute();
}

export async function findCustomEmoji(db: Db, id: string): Promise<CustomEmojiRow | undefined> {
  return db.selectFrom('custom_emojis').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findCustomEmojiByName(db: Db, workspaceId: string, name: string): Promise<CustomEmojiRow | undefined> {
  return db.selectFrom('custom_emojis').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();
}

/** The workspace's emojis among `ids` (the others do not exist for it). */
export async function findCustomEmojis(db: Db, workspaceId: string, ids: readonly string[]): Promise<CustomEmojiRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('custom_emojis')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
}

/** Keyset page in name order: up to `limit` emojis named after `after` (or exactly `name`). */
export async function listCustomEmojis(
  db: Db,
  workspaceId: string,
  options: { after: string | null; name?: string; limit: number },
): Promise<CustomEmojiRow[]> {
  let query = db.selectFrom('custom_emojis').selectAll().where('workspace_id', '=', workspaceId);
  if (options.name !== undefined) query = query.where('name', '=', options.name);
  if (options.after !== null) query = query.where('name', '>', options.after);
  return query.orderBy('name').limit(options.limit).execute();
}

export async function deleteCustomEmoji(db: Db, id: string): Promise<void> {
  await db.deleteFrom('custom_emojis').where('id', '=', id).execute();
}

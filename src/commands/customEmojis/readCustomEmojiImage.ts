import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { findCustomEmoji } from '../../storage/repositories/customEmojis.js';

/** An emoji's image, for its public URL; undefined once the emoji is gone. */
export async function readCustomEmojiImage(ctx: AppContext, id: string): Promise<{ contentType: string; size: number; open(): Readable } | undefined> {
  const row = await findCustomEmoji(ctx.store.db, id);
  if (!row) return undefined;
  return { contentType: row.content_type, size: row.size, open: () => ctx.files.read(row.file_key) };
}

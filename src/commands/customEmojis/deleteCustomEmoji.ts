import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors/registry.js';
import { deleteCustomEmoji as deleteRow, findCustomEmoji } from '../../storage/repositories/customEmojis.js';

/**
 * The operator removes an emoji: the row first, so nothing resolves it any more, then its bytes.
 * Icons and mentions that already used it keep the name and URL they were given; the URL then
 * answers 404, as a deleted emoji's image does.
 */
export async function deleteCustomEmoji(ctx: AppContext, id: string): Promise<void> {
  const row = await findCustomEmoji(ctx.store.db, id);
  if (!row) throw new ApiError('object_not_found', `Could not find custom emoji with ID: ${id}.`);
  await deleteRow(ctx.store.db, id);
  await ctx.files.delete([row.file_key]);
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CustomEmojiRow } from '../../storage/schema.js';
import type { ListView } from '../../domain/views.js';
import type { CustomEmojiListOptions } from '../../schemas/customEmojis.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { listCustomEmojis as listRows } from '../../storage/repositories/customEmojis.js';

/** GET /v1/custom_emojis: the caller's workspace's emojis in name order; `name` matches exactly (FACTS.md §10.5). */
export async function listCustomEmojis(ctx: AppContext, caller: Caller, options: CustomEmojiListOptions): Promise<ListView<CustomEmojiRow>> {
  const pageSize = options.page_size ?? 100;
  const after = options.start_cursor ? String(decodeCursor('custom_emojis', options.start_cursor, 'start_cursor', 'query')[0]) : null;
  const rows = await listRows(ctx.store.db, caller.workspaceId, { after, name: options.name, limit: pageSize + 1 });
  const page = rows.slice(0, pageSize);
  return { items: page, nextCursor: rows.length > pageSize ? encodeCursor('custom_emojis', [page[page.length - 1].name]) : null };
}

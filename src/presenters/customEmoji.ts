import type { Static } from 'typebox';
import type { CustomEmojiRow } from '../storage/schema.js';
import type { ListView } from '../domain/views.js';
import type { CustomEmoji, CustomEmojiListResponse } from '../schemas/customEmojis.js';
import { emojiUrl } from '../ids/emojiUrl.js';
import { presentList } from './list.js';

export function presentCustomEmoji(row: CustomEmojiRow, baseUrl: string): Static<typeof CustomEmoji> {
  return { id: row.id, name: row.name, url: emojiUrl(baseUrl, row.id) };
}

export function presentCustomEmojiList(list: ListView<CustomEmojiRow>, baseUrl: string): Static<typeof CustomEmojiListResponse> {
  return presentList(
    'custom_emoji',
    list.items.map((row) => presentCustomEmoji(row, baseUrl)),
    list.nextCursor,
  );
}

import { Type, type Static } from 'typebox';
import { PageSizeQuery, StrictObject } from './common.js';
import { Closed, Id, ListOf } from './objectParts.js';

/** Image types an emoji may be: what browsers draw inline; SVG is left out, as it can carry script. */
export const EMOJI_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Decoded bytes at most; the admin plane's 500 KiB body limit holds the base64 of this and more. */
export const MAX_EMOJI_BYTES = 256 * 1024;

/** `POST /admin/v1/workspaces/{id}/custom_emojis`: the name is what `:name:` says in text. */
export const CreateCustomEmojiBody = StrictObject({
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_-]+$' }),
  content_type: Type.Union(EMOJI_CONTENT_TYPES.map((t) => Type.Literal(t))),
  data_base64: Type.String({ minLength: 1, maxLength: Math.ceil(MAX_EMOJI_BYTES / 3) * 4 + 4, pattern: '^[A-Za-z0-9+/]*={0,2}$' }),
});
export type CreateCustomEmojiInput = Static<typeof CreateCustomEmojiBody>;

export const CustomEmojiParams = StrictObject({ custom_emoji_id: Type.String() });
export const CustomEmojiImageParams = StrictObject({ custom_emoji_id: Type.String({ maxLength: 200 }) });

/** SDK `CustomEmojiResponse`. */
export const CustomEmoji = Type.Object({ id: Id, name: Type.String(), url: Type.String() }, Closed);

export const CustomEmojiListQuery = StrictObject({
  name: Type.Optional(Type.String({ maxLength: 200 })),
  start_cursor: Type.Optional(Type.String({ maxLength: 2000 })),
  page_size: Type.Optional(PageSizeQuery),
});
export type CustomEmojiListOptions = Static<typeof CustomEmojiListQuery>;

/** SDK `ListCustomEmojisResponse`: the list envelope with `type: "custom_emoji"`. */
export const CustomEmojiListResponse = ListOf('custom_emoji', CustomEmoji);

import type { App } from '../../http/app.js';
import type { AppContext } from '../../context.js';
import { ApiError } from '../../errors/registry.js';
import { normalizeId } from '../../ids/ids.js';
import { CustomEmojiImageParams, CustomEmojiListQuery, CustomEmojiListResponse } from '../../schemas/customEmojis.js';
import { listCustomEmojis } from '../../commands/customEmojis/listCustomEmojis.js';
import { readCustomEmojiImage } from '../../commands/customEmojis/readCustomEmojiImage.js';
import { presentCustomEmojiList } from '../../presenters/customEmoji.js';

/** GET /v1/custom_emojis (SDK `customEmojis.list`): any valid token, no content capability (docs/decisions.md). */
export function registerCustomEmojiRoutes(app: App, ctx: AppContext): void {
  app.get('/v1/custom_emojis', { config: { response: CustomEmojiListResponse }, schema: { querystring: CustomEmojiListQuery } }, async (request) =>
    presentCustomEmojiList(await listCustomEmojis(ctx, request.caller!, request.query), ctx.config.publicUrl),
  );
}

/**
 * `GET /emojis/{id}`: an emoji's image, outside the v1 plane and without a token, as the service's
 * emoji URLs are public and stable (they are stored in icons and mentions). Only the four image
 * types an emoji may have are ever served, sandboxed like hosted files.
 */
export function registerCustomEmojiImageRoute(app: App, ctx: AppContext): void {
  app.get('/emojis/:custom_emoji_id', { schema: { params: CustomEmojiImageParams } }, async (request, reply) => {
    const id = normalizeId(request.params.custom_emoji_id);
    const image = id ? await readCustomEmojiImage(ctx, id) : undefined;
    if (!image) throw new ApiError('object_not_found', 'This custom emoji no longer exists.');
    reply
      .header('content-type', image.contentType)
      .header('content-length', String(image.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .header('cache-control', 'public, max-age=86400');
    return reply.send(image.open());
  });
}

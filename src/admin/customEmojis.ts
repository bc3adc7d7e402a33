import { readFileSync } from 'node:fs';
import { WorkspaceParams } from '../schemas/admin.js';
import { CreateCustomEmojiBody, CustomEmoji, CustomEmojiParams } from '../schemas/customEmojis.js';
import { presentCustomEmoji } from '../presenters/customEmoji.js';
import { createCustomEmoji } from '../commands/customEmojis/createCustomEmoji.js';
import { deleteCustomEmoji } from '../commands/customEmojis/deleteCustomEmoji.js';
import { adminOperation, bodyOption, deletion, pathOption, type AnyAdminOperation } from './adminOperation.js';

export const CUSTOM_EMOJI_OPERATIONS: readonly AnyAdminOperation[] = [
  adminOperation({
    method: 'POST',
    path: '/workspaces/:workspace_id/custom_emojis',
    params: WorkspaceParams,
    body: CreateCustomEmojiBody,
    response: CustomEmoji,
    run: (ctx, { params, body }) => createCustomEmoji(ctx, params.workspace_id, body),
    present: (row, ctx) => presentCustomEmoji(row, ctx.config.publicUrl),
    cli: {
      name: 'create-custom-emoji',
      description: 'add a custom emoji (a PNG, JPEG, GIF or WebP image) to a workspace',
      options: [
        pathOption('--workspace <id>', 'workspace_id'),
        bodyOption('--name <name>', 'name', { required: true, description: 'lower-case letters, digits, _ and -' }),
        bodyOption('--content-type <type>', 'content_type', { required: true, description: 'image/png, image/jpeg, image/gif or image/webp' }),
        // The command line names a file; the request carries its bytes.
        bodyOption('--file <path>', 'data_base64', {
          required: true,
          description: 'the image file',
          convert: (value) => (typeof value === 'string' ? readFileSync(value).toString('base64') : value),
        }),
      ],
    },
  }),
  deletion({
    path: '/custom_emojis/:custom_emoji_id',
    params: CustomEmojiParams,
    object: 'custom_emoji',
    idParam: 'custom_emoji_id',
    remove: (ctx, params) => deleteCustomEmoji(ctx, params.custom_emoji_id),
    cli: { name: 'delete-custom-emoji', description: 'remove a custom emoji and its image', options: [pathOption('--custom-emoji <id>', 'custom_emoji_id')] },
  }),
];

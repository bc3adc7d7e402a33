import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { Caption, Url } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type WritableBlockTypeDefinition } from './definition.js';

/** A link shown as a card or a frame, with a caption. */
const linkBlock = (): WritableBlockTypeDefinition => ({
  ...PLAIN,
  caption: true,
  request: {
    create: () => StrictObject({ url: Url, caption: Caption }),
    update: StrictObject({ url: Type.Optional(Url), caption: Caption }),
    deepestLevel: 2,
    build: async (c) => ({ caption: await c.rich('caption'), url: c.keep('url', '') }),
  },
  present: presentFields('caption', 'url'),
});

export const bookmark = linkBlock();
export const embed = linkBlock();

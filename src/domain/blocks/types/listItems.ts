import { Type } from 'typebox';
import type { BlockContent } from '../../contentShapes.js';
import { plainText, textBlock } from './text.js';

export const bulletedListItem = plainText();

const numbering = {
  list_start_index: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  list_format: Type.Optional(Type.Enum(['numbers', 'letters', 'roman'])),
};

export const numberedListItem = textBlock(
  numbering,
  numbering,
  async (c) => {
    const out: BlockContent = { rich_text: await c.rich('rich_text'), color: c.color() };
    const start = c.keep<number | undefined>('list_start_index', undefined);
    const format = c.keep<string | undefined>('list_format', undefined);
    if (start !== undefined) out.list_start_index = start;
    if (format !== undefined) out.list_format = format;
    return out;
  },
  ['rich_text', 'color', 'list_start_index', 'list_format'],
);

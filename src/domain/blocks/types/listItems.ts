import { Type } from 'typebox';
import type { BlockContent } from '../../contentShapes.js';
import { plainText, textBlock } from './text.js';
import type { BlockMarkdown } from './definition.js';
import { attrSuffix, colorFrom, listItemOf, nfmColor, phrasingIn, rich, richFrom, withChildren } from '../../markdown/forms.js';

const bulletedMarkdown: BlockMarkdown = {
  render: (block, ctx) => withChildren(`- ${rich(block.member)}${attrSuffix({ color: nfmColor(block.member) })}`, block, ctx),
  parse(node) {
    const found = listItemOf(node);
    if (!found || found.list.ordered || typeof found.item.checked === 'boolean') return null;
    return { member: { rich_text: richFrom(phrasingIn(found.item.children, 'A list item')), color: colorFrom(node.attrs.color) }, children: node.children };
  },
};

/** The number written is the item's `list_start_index` (1 unless set); the list format has no markdown form. */
const numberedMarkdown: BlockMarkdown = {
  render: (block, ctx) =>
    withChildren(`${Number(block.member.list_start_index ?? 1)}. ${rich(block.member)}${attrSuffix({ color: nfmColor(block.member) })}`, block, ctx),
  parse(node) {
    const found = listItemOf(node);
    if (!found || !found.list.ordered) return null;
    const member: Record<string, unknown> = { rich_text: richFrom(phrasingIn(found.item.children, 'A list item')), color: colorFrom(node.attrs.color) };
    if (found.list.start !== undefined && found.list.start !== null && found.list.start !== 1) member.list_start_index = found.list.start;
    return { member, children: node.children };
  },
};

export const bulletedListItem = plainText(bulletedMarkdown);

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
  { markdown: numberedMarkdown },
);

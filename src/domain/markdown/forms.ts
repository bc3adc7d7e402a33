import type { Heading, List, ListItem, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { MarkdownBlock, MarkdownNode, ParsedForm, RenderContext } from './nodes.js';
import { markdownToRichText, phrasingToRichText, richTextToMarkdown, idFromMentionUrl, type InlineItem } from './inline.js';
import { attrs } from './tags.js';
import { fromNfmColor, toNfmColor } from './colors.js';
import { MarkdownSyntaxError } from './syntax.js';

/**
 * The pieces block types build their markdown forms from (each type's form is its registry entry,
 * src/domain/blocks/types/*.ts). Nothing here knows a block type by name.
 */

/** Plain text of stored or request rich text (a request item has no plain_text yet). */
export const plainOf = (items: unknown) =>
  ((items as InlineItem[] | undefined) ?? []).map((i) => i.plain_text ?? i.text?.content ?? i.equation?.expression ?? '').join('');

export const rich = (member: Record<string, unknown>, key = 'rich_text') => richTextToMarkdown((member[key] as InlineItem[] | undefined) ?? []);

/** `color` when not the default, in NFM spelling; for tag attributes. */
export const nfmColor = (member: Record<string, unknown>) => (member.color && member.color !== 'default' ? toNfmColor(String(member.color)) : undefined);

/** The `{color="…"}` list of a block's first line (FACTS.md §10.1 1.2), empty when nothing to say. */
export function attrSuffix(pairs: Record<string, string | undefined>): string {
  const list = attrs(pairs);
  return list ? ` {${list.trim()}}` : '';
}

export const colorFrom = (raw: string | undefined) => fromNfmColor(raw ?? 'default');

/** A block's first line, then its children one tab deeper. */
export const withChildren = (line: string, block: MarkdownBlock, ctx: RenderContext) => [line, ...ctx.children(block)];

/** A block written as an opening tag, its inside one tab deeper, and its closing tag. */
export const tagBlock = (name: string, pairs: Record<string, string | undefined>, inside: string[]) => [`<${name}${attrs(pairs)}>`, ...inside, `</${name}>`];

const flowOf = <T extends RootContent['type']>(node: MarkdownNode, type: T) =>
  node.flow?.type === type ? (node.flow as Extract<RootContent, { type: T }>) : null;

export const paragraphOf = (node: MarkdownNode): Paragraph | null => flowOf(node, 'paragraph');
export const headingOf = (node: MarkdownNode): Heading | null => flowOf(node, 'heading');

/** The one item of a one-line list, and its list. */
export function listItemOf(node: MarkdownNode): { list: List; item: ListItem } | null {
  const list = flowOf(node, 'list');
  if (!list || list.children.length !== 1) return null;
  return { list, item: list.children[0] };
}

/** Phrasing of a container that holds at most one paragraph (a list item, a quote). */
export function phrasingIn(children: readonly RootContent[], what: string): PhrasingContent[] {
  if (children.length === 0) return [];
  if (children.length > 1 || children[0].type !== 'paragraph')
    throw new MarkdownSyntaxError(`${what} should hold rich text only; put blocks on the lines below, one tab deeper`);
  return children[0].children;
}

export const richFrom = (phrasing: readonly PhrasingContent[]) => phrasingToRichText(phrasing);
export const richFromText = (inner: string | null) => (inner ? markdownToRichText(inner) : []);

/** A tag node named `name`, or null. */
export const tagged = (node: MarkdownNode, name: string) => (node.tag && !node.tag.closing && node.tag.name === name ? node.tag : null);

/** An existing block named by a tag's `url`, kept as it is. */
export function keepFrom(url: string | undefined, what: string): ParsedForm {
  const id = url ? idFromMentionUrl(url) : null;
  if (!id) throw new MarkdownSyntaxError(`\`<${what}>\` needs a \`url\` naming an existing block`);
  return { keep: id };
}

export { idFromMentionUrl };

import { BLOCK_TYPE_DEFINITIONS } from '../blocks/registry.js';
import type { MarkdownNode, ParsedBlock } from './nodes.js';
import { splitMarkdown } from './split.js';
import { idFromMentionUrl } from './inline.js';
import { cut } from './tags.js';
import { MarkdownSyntaxError } from './syntax.js';

/**
 * NFM → blocks (FACTS.md §10.1): the text is split into blocks by indentation (split.ts), and
 * each block asked of every type's form in registry order; the first that reads it decides. A
 * block no type reads is an error, never dropped.
 */
const FORMS = Object.entries(BLOCK_TYPE_DEFINITIONS).flatMap(([type, definition]) => (definition.markdown ? [{ type, form: definition.markdown }] : []));

function parseNode(node: MarkdownNode): ParsedBlock {
  // `<unknown url=… alt=…/>` stands for a block markdown cannot show: kept as it is.
  if (node.tag && node.tag.name === 'unknown' && !node.tag.closing) {
    const id = node.tag.attrs.url ? idFromMentionUrl(node.tag.attrs.url) : null;
    if (!id) throw new MarkdownSyntaxError('`<unknown>` needs a `url` naming an existing block');
    return { kind: 'keep', id, type: node.tag.attrs.alt ?? 'unknown', source: node.source };
  }
  for (const { type, form } of FORMS) {
    const parsed = form.parse(node);
    if (!parsed) continue;
    if ('keep' in parsed) return { kind: 'keep', id: parsed.keep, type, source: node.source };
    return { kind: 'new', type, member: parsed.member, children: [...parsed.children.map(parseNode), ...(parsed.made ?? [])], source: node.source };
  }
  const what = node.tag ? `\`<${node.tag.name}>\` is not an NFM block tag` : `\`${cut(node.lines[0])}\` is not an NFM block`;
  throw new MarkdownSyntaxError(what);
}

export function parseMarkdown(markdown: string): ParsedBlock[] {
  return parseNodes(splitMarkdown(markdown));
}

/** Split blocks (split.ts) read as blocks: an edit reads only those it changed. */
export function parseNodes(nodes: readonly MarkdownNode[]): ParsedBlock[] {
  return nodes.map(parseNode);
}

/** The parsed blocks as request blocks (`{type, [type]: {…member, children}}`), for insertBlockTree. */
export function toRequestBlocks(blocks: readonly ParsedBlock[]): Array<Record<string, unknown>> {
  return blocks.map((block) => {
    if (block.kind === 'keep') throw new MarkdownSyntaxError(`\`${cut(block.source)}\` names an existing block, which markdown cannot create`);
    const member: Record<string, unknown> = { ...block.member };
    if (block.children.length) member.children = toRequestBlocks(block.children);
    return { type: block.type, [block.type]: member };
  });
}

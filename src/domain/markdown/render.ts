import { BLOCK_TYPE_DEFINITIONS, blockDefinitionOf } from '../blocks/registry.js';
import type { MarkdownBlock, RenderContext } from './nodes.js';
import { attrs } from './tags.js';

/**
 * Blocks → NFM (FACTS.md §10.1): each type's form is its registry entry; a type without one, and
 * a block the reader may not see or that lies past the block limit, is `<unknown url=… alt=…/>`.
 * Top-level blocks are separated by one newline (the newer docs' form, FACTS.md §10.1 1.2).
 */

export interface RenderOptions {
  /** A block's address for `url` attributes. */
  urlOf(id: string): string;
  includeTranscript: boolean;
}

/** A loaded block the reader may not see, or one past the limit: written `<unknown>` and listed. */
export interface HiddenBlock extends MarkdownBlock {
  hidden: true;
}

export interface RenderedMarkdown {
  markdown: string;
  /** Each top-level block's text, in order: what an edit compares against. */
  topLevel: string[];
  /** The hidden blocks written `<unknown>` (FACTS.md §10.1 1.5). */
  unknownBlockIds: string[];
}

const isHidden = (block: MarkdownBlock): block is HiddenBlock => (block as HiddenBlock).hidden === true;

export function renderBlocks(blocks: readonly MarkdownBlock[], options: RenderOptions): RenderedMarkdown {
  const unknownBlockIds: string[] = [];
  const unknown = (block: MarkdownBlock) => `<unknown${attrs({ url: options.urlOf(block.id), alt: block.type })}/>`;
  const ctx: RenderContext = {
    children: (block) => ctx.indent(block.children),
    indent: (children) => children.flatMap((child) => render(child).map((line) => `\t${line}`)),
    unknown,
    urlOf: options.urlOf,
    includeTranscript: options.includeTranscript,
  };
  const render = (block: MarkdownBlock): string[] => {
    if (isHidden(block)) {
      unknownBlockIds.push(block.id);
      return [unknown(block)];
    }
    const form = blockDefinitionOf(block.type)?.markdown;
    return form ? form.render(block, ctx) : [unknown(block)];
  };
  const topLevel = blocks.map((block) => render(block).join('\n'));
  return { markdown: topLevel.join('\n'), topLevel, unknownBlockIds };
}

/** The types with a markdown form, in registry order (what the round-trip tests cover). */
export const TYPES_WITH_MARKDOWN = Object.keys(BLOCK_TYPE_DEFINITIONS).filter((type) => blockDefinitionOf(type)?.markdown);

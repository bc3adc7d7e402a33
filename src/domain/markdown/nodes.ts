import type { RootContent } from 'mdast';
import type { Tag } from './tags.js';
import type { Annotations } from '../richText.js';

/**
 * One block of NFM as the splitter reads it (src/domain/markdown/split.ts): its own lines, what
 * they are (an NFM tag, or a CommonMark flow node), and its tab-indented children.
 */
export interface MarkdownNode {
  /** The block's own lines, dedented: one for most, several for fences, `$$`, tables and tag blocks' heads. */
  lines: string[];
  /** The first line without its `{…}` attribute list. */
  head: string;
  /** The `{color="…" toggle="…"}` list of the first line. */
  attrs: Record<string, string>;
  /** The tag the block opens with, when it is an NFM tag block (`<details>`, `<page …>…</page>`, `<unknown/>`). */
  tag: Tag | null;
  /** Inner text of a one-line `<x …>inner</x>`. */
  inner: string | null;
  /** The CommonMark reading of the block's own lines (not for tag blocks). */
  flow: RootContent | null;
  children: MarkdownNode[];
  /** The block's whole text, children included, as written: what an edit compares. */
  source: string;
}

/** A block as the converter renders it: its stored member, its title (pages, databases) and its children. */
export interface MarkdownBlock {
  id: string;
  type: string;
  member: Record<string, unknown>;
  children: MarkdownBlock[];
}

/** What rendering a block may ask of the converter. */
export interface RenderContext {
  /** The block's children rendered, one tab deeper. */
  children(block: MarkdownBlock): string[];
  /** Blocks rendered one tab deeper. */
  indent(blocks: readonly MarkdownBlock[]): string[];
  /** The `<unknown …/>` line of a block without a markdown form. */
  unknown(block: MarkdownBlock): string;
  /** A block's address for `url` attributes. */
  urlOf(id: string): string;
  /** Meeting notes show their transcript only when asked. */
  includeTranscript: boolean;
}

/** A block read from markdown: new content, or an existing block named by its `url` and kept as it is. */
export type ParsedBlock =
  | { kind: 'new'; type: string; member: Record<string, unknown>; children: ParsedBlock[]; source: string }
  | { kind: 'keep'; id: string; type: string; source: string };

/** What a type's `parse` answers: the member it reads, and the nodes its children come from. */
export type ParsedForm =
  | {
      member: Record<string, unknown>;
      children: readonly MarkdownNode[];
      /** Children the type read itself (a pipe table's rows), after those of `children`. */
      made?: ParsedBlock[];
    }
  | { keep: string };

/** A rich text item as stored (with plain_text, href) or as a request writes it: what rendering reads. */
export interface InlineItem {
  type?: string;
  text?: { content: string; link?: { url: string } | null };
  mention?: Record<string, unknown>;
  equation?: { expression: string };
  annotations?: Partial<Annotations>;
  plain_text?: string;
  href?: string | null;
}

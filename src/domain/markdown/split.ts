import type { RootContent } from 'mdast';
import type { MarkdownNode } from './nodes.js';
import { cut, readTag, type Tag } from './tags.js';
import { MarkdownSyntaxError, readCommonMark } from './syntax.js';

/**
 * Splits NFM into blocks by its tab indentation before any CommonMark reading (docs/decisions.md
 * "Markdown"): NFM marks children with tabs, which CommonMark would read as indented code. Each
 * block's own lines are then read by mdast-util-from-markdown; NFM tags are read by tags.ts.
 */

/** Tags whose block spans lines up to its closing tag, holding tab-indented children. */
const CONTAINERS: ReadonlySet<string> = new Set([
  'details',
  'callout',
  'columns',
  'column',
  'synced_block',
  'synced_block_reference',
  'meeting-notes',
  'summary',
  'notes',
  'transcript',
  'table',
  'tr',
]);

/** Tags that open inline content, so a line starting with one is a paragraph. */
const isInlineTag = (name: string) => name === 'span' || name === 'br' || name.startsWith('mention-');

const ATTR_LIST = /\s\{((?:\s*[a-zA-Z_-]+="[^"]*")+)\s*\}\s*$/;
const ATTR = /([a-zA-Z_-]+)="([^"]*)"/g;

function attrList(line: string): { head: string; attrs: Record<string, string> } {
  const match = ATTR_LIST.exec(line);
  if (!match) return { head: line, attrs: {} };
  const attrs: Record<string, string> = {};
  for (const [, key, value] of match[1].matchAll(ATTR)) attrs[key] = value;
  return { head: line.slice(0, match.index), attrs };
}

const dedent = (line: string) => (line.startsWith('\t') ? line.slice(1) : line);
const isChildLine = (line: string) => line.startsWith('\t') || line.trim() === '';

/** A one-line tag block: `<x …/>`, or `<x …>inner</x>`. */
function oneLineTag(line: string): { tag: Tag; inner: string | null } | null {
  const tag = readTag(line);
  if (!tag || tag.closing || isInlineTag(tag.name)) return null;
  const rest = line.slice(tag.length);
  if (tag.selfClosing) return rest.trim() === '' ? { tag, inner: null } : null;
  const close = `</${tag.name}>`;
  if (rest.trimEnd().endsWith(close)) return { tag, inner: rest.trimEnd().slice(0, -close.length) };
  return null;
}

function readFlow(text: string): RootContent | null {
  const flow = readCommonMark(text, /^(`{3,}|~{3,}|\$\$)/.test(text)).children[0] ?? null;
  // A line that is one inline tag (`<mention-user …/>`) reads as an HTML block in CommonMark: it is a paragraph's text.
  if (flow?.type === 'html' && readTag(flow.value) && isInlineTag(readTag(flow.value)!.name))
    return { type: 'paragraph', children: [{ type: 'html', value: flow.value }] };
  return flow;
}

/**
 * How many tab levels a block may be nested in markdown. Each level is a recursion here and in
 * every walk of the block tree after (parse, checks, insertion), and costs a copy of the lines
 * below it, so depth is bounded before any of them runs (issue 29; docs/decisions.md).
 */
export const MAX_MARKDOWN_DEPTH = 100;

export function splitMarkdown(markdown: string): MarkdownNode[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((line, i) => {
    // A line's level is its tabs plus one; the length test skips the regex for nearly every line.
    if (line.length >= MAX_MARKDOWN_DEPTH && /^\t*/.exec(line)![0].length >= MAX_MARKDOWN_DEPTH)
      throw new MarkdownSyntaxError(`line ${i + 1} is nested more than ${MAX_MARKDOWN_DEPTH} levels deep`);
  });
  return splitLines(lines);
}

function splitLines(lines: readonly string[]): MarkdownNode[] {
  const nodes: MarkdownNode[] = [];
  let i = 0;
  const childrenFrom = (start: number): number => {
    let j = start;
    while (j < lines.length && isChildLine(lines[j])) j++;
    // Trailing empty lines separate blocks; they belong to no child.
    while (j > start && lines[j - 1].trim() === '') j--;
    return j;
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === '') {
      i++;
      continue;
    }
    if (line.startsWith('\t')) throw new MarkdownSyntaxError(`line ${i + 1} is indented under no block: \`${cut(line.trim())}\``);
    const start = i;
    let own: string[];
    let childLines: string[] = [];
    let tag: Tag | null = null;
    let inner: string | null = null;
    const fence = /^(`{3,}|~{3,})/.exec(line);
    if (fence) {
      let j = i + 1;
      while (
        j < lines.length &&
        !(lines[j].startsWith(fence[1][0].repeat(fence[1].length)) && lines[j].trim() === lines[j].trim()[0].repeat(lines[j].trim().length))
      )
        j++;
      if (j >= lines.length) throw new MarkdownSyntaxError(`the code block at line ${i + 1} is not closed`);
      own = lines.slice(i, j + 1);
      i = j + 1;
    } else if (/^\$\$\s*$/.test(line)) {
      let j = i + 1;
      while (j < lines.length && !/^\$\$\s*$/.test(lines[j])) j++;
      if (j >= lines.length) throw new MarkdownSyntaxError(`the equation at line ${i + 1} is not closed`);
      own = lines.slice(i, j + 1);
      i = j + 1;
    } else if (line.startsWith('|')) {
      let j = i;
      while (j < lines.length && lines[j].startsWith('|')) j++;
      own = lines.slice(i, j);
      i = j;
    } else if (line.startsWith('<') && oneLineTag(line)) {
      ({ tag, inner } = oneLineTag(line)!);
      own = [line];
      const end = childrenFrom(i + 1);
      childLines = lines.slice(i + 1, end);
      i = end;
    } else if (line.startsWith('<') && readTag(line) && CONTAINERS.has(readTag(line)!.name) && readTag(line)!.length === line.trimEnd().length) {
      tag = readTag(line)!;
      own = [line];
      let j = i + 1;
      // A toggle's title line sits at the toggle's own level (FACTS.md §10.1 1.3).
      if (tag.name === 'details' && j < lines.length && lines[j].startsWith('<summary>')) {
        const summary = /^<summary>(.*)<\/summary>\s*$/.exec(lines[j]);
        if (!summary) throw new MarkdownSyntaxError(`the \`<summary>\` at line ${j + 1} is not closed on its line`);
        inner = summary[1];
        own.push(lines[j]);
        j++;
      }
      const end = childrenFrom(j);
      childLines = lines.slice(j, end);
      const close = `</${tag.name}>`;
      if (end >= lines.length || lines[end].trimEnd() !== close)
        throw new MarkdownSyntaxError(`the \`<${tag.name}>\` at line ${i + 1} is not closed by \`${close}\``);
      own.push(close);
      i = end + 1;
    } else {
      own = [line];
      const end = childrenFrom(i + 1);
      childLines = lines.slice(i + 1, end);
      i = end;
    }
    const { head, attrs } = tag || fence || own.length > 1 ? { head: own[0], attrs: {} } : attrList(own[0]);
    const text = own.length > 1 ? own.join('\n') : head;
    let flow: RootContent | null | undefined = tag ? null : undefined;
    nodes.push({
      lines: own,
      head,
      attrs,
      tag,
      inner,
      // Read by CommonMark only when a type asks: an edit reads only the blocks it changed.
      get flow() {
        if (flow === undefined) flow = readFlow(text);
        return flow;
      },
      children: splitLines(childLines.map(dedent)),
      source: lines.slice(start, i).join('\n'),
    });
  }
  return nodes;
}

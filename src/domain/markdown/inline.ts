import { toMarkdown } from 'mdast-util-to-markdown';
import type { Html, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { Annotations } from '../richText.js';
import { DEFAULT_ANNOTATIONS } from '../richText.js';
import { LIMITS, type RichTextItemInput } from '../../schemas/richText.js';
import { normalizeId } from '../../ids/ids.js';
import { attrs, cut, readTag } from './tags.js';
import { fromNfmColor, toNfmColor } from './colors.js';
import { MarkdownSyntaxError, readCommonMark, SERIALIZE_OPTIONS } from './syntax.js';
import { fastRichText } from './fastInline.js';
import type { InlineItem } from './nodes.js';

/**
 * Rich text ⇄ NFM inline markdown (FACTS.md §10.1 1.4). Rich text becomes an mdast phrasing tree
 * that mdast-util-to-markdown writes (it knows which characters to escape where, and how to keep
 * `**a*b***` unambiguous); markdown is read by mdast-util-from-markdown and the tree walked back.
 * The NFM tags (`<span>`, `<br>`, `<mention-…>`) travel as mdast `html` nodes.
 */

export type { InlineItem } from './nodes.js';

const html = (value: string): Html => ({ type: 'html', value });

/** The request schema's static type cannot follow the colour union: the walk only writes known colours. */
const asRequest = (a: Annotations) => a as unknown as NonNullable<RichTextItemInput['annotations']>;

function annotationsOf(item: InlineItem): Annotations {
  return { ...DEFAULT_ANNOTATIONS, ...(item.annotations ?? {}) };
}

/** The `<span>` attributes an item carries: underline and colour, the two NFM writes as a tag. */
function spanOf(item: InlineItem): string | null {
  const a = annotationsOf(item);
  if (!a.underline && a.color === 'default') return null;
  return attrs({ underline: a.underline ? 'true' : undefined, color: a.color === 'default' ? undefined : toNfmColor(a.color) });
}

/** Wrappers from the outside in; consecutive items sharing one share its node. */
const LAYERS: ReadonlyArray<{ key(item: InlineItem): string | null; wrap(key: string, children: PhrasingContent[]): PhrasingContent[] }> = [
  { key: (i) => (i.type === 'text' || i.text ? (i.text?.link?.url ?? null) : null), wrap: (url, children) => [{ type: 'link', url, children }] },
  { key: spanOf, wrap: (span, children) => [html(`<span${span}>`), ...children, html('</span>')] },
  { key: (i) => (annotationsOf(i).bold ? '' : null), wrap: (_k, children) => [{ type: 'strong', children }] },
  { key: (i) => (annotationsOf(i).italic ? '' : null), wrap: (_k, children) => [{ type: 'emphasis', children }] },
  { key: (i) => (annotationsOf(i).strikethrough ? '' : null), wrap: (_k, children) => [{ type: 'delete', children }] },
];

function mentionTag(mention: Record<string, unknown>, item: InlineItem): PhrasingContent[] {
  const type = String(mention.type ?? Object.keys(mention).find((k) => k !== 'type'));
  const body = (mention[type] ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'user':
    case 'page':
    case 'database':
    case 'data_source':
      return [html(`<mention-${type.replace('_', '-')}${attrs({ url: String(body.id) })}/>`)];
    case 'date':
      return [
        html(
          `<mention-date${attrs({ start: String(body.start), end: (body.end as string | null) ?? undefined, timeZone: (body.time_zone as string | null) ?? undefined })}/>`,
        ),
      ];
    case 'custom_emoji':
      return [{ type: 'text', value: `:${String(body.name ?? item.plain_text ?? '')}:` }];
    default: {
      // Link previews, link mentions and template mentions have no NFM form: their text, linked.
      const text: PhrasingContent = { type: 'text', value: item.plain_text ?? '' };
      return item.href ? [{ type: 'link', url: item.href, children: [text] }] : [text];
    }
  }
}

function leaf(item: InlineItem): PhrasingContent[] {
  if (item.equation || item.type === 'equation') return [{ type: 'inlineMath', value: item.equation?.expression ?? '' }];
  if (item.mention || item.type === 'mention') return mentionTag(item.mention ?? {}, item);
  const content = item.text?.content ?? item.plain_text ?? '';
  if (annotationsOf(item).code) return lines(content, (value) => ({ type: 'inlineCode', value }));
  return lines(content, (value) => ({ type: 'text', value }));
}

/** Line breaks inside one block are `<br>` (FACTS.md §10.1 1.2). */
function lines(content: string, node: (value: string) => PhrasingContent): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  content.split('\n').forEach((part, i) => {
    if (i > 0) out.push(html('<br>'));
    if (part) out.push(node(part));
  });
  return out;
}

function build(items: readonly InlineItem[], layer: number): PhrasingContent[] {
  if (layer === LAYERS.length) {
    const leaves: PhrasingContent[] = [];
    for (const item of items) {
      const own = leaf(item);
      // Two equations side by side would read as one (`$a$$b$`): an empty span keeps them apart.
      if (leaves[leaves.length - 1]?.type === 'inlineMath' && own[0]?.type === 'inlineMath') leaves.push(html('<span>'), html('</span>'));
      leaves.push(...own);
    }
    return leaves;
  }
  const { key, wrap } = LAYERS[layer];
  const out: PhrasingContent[] = [];
  for (let i = 0; i < items.length;) {
    const k = key(items[i]);
    let j = i + 1;
    while (j < items.length && key(items[j]) === k) j++;
    const inner = build(items.slice(i, j), layer + 1);
    out.push(...(k === null ? inner : wrap(k, inner)));
    i = j;
  }
  return out;
}

const isText = (item: InlineItem) => !item.mention && !item.equation && item.type !== 'mention' && item.type !== 'equation';
function sameMarksAs(a: InlineItem, b: InlineItem): boolean {
  const x = a.annotations ?? {};
  const y = b.annotations ?? {};
  return (
    (x.bold ?? false) === (y.bold ?? false) &&
    (x.italic ?? false) === (y.italic ?? false) &&
    (x.strikethrough ?? false) === (y.strikethrough ?? false) &&
    (x.underline ?? false) === (y.underline ?? false) &&
    (x.code ?? false) === (y.code ?? false) &&
    (x.color ?? 'default') === (y.color ?? 'default') &&
    (a.text?.link?.url ?? null) === (b.text?.link?.url ?? null)
  );
}

/** Adjacent text items of the same marks as one: two code spans side by side would read as one with backticks in it. */
function mergeText(items: readonly InlineItem[]): InlineItem[] {
  const out: InlineItem[] = [];
  for (const item of items) {
    const last = out[out.length - 1];
    if (last && isText(last) && isText(item) && sameMarksAs(last, item)) {
      out[out.length - 1] = {
        ...last,
        text: { content: (last.text?.content ?? last.plain_text ?? '') + (item.text?.content ?? item.plain_text ?? ''), link: last.text?.link ?? null },
      };
    } else out.push(item);
  }
  return out;
}

/** Rich text as NFM inline markdown, on one line. */
export function richTextToMarkdown(items: readonly InlineItem[]): string {
  if (items.length === 0) return '';
  const merged = mergeText(items);
  const written = fastRichText(merged) ?? toMarkdown({ type: 'paragraph', children: build(merged, 0) } as Paragraph, SERIALIZE_OPTIONS).replace(/\n$/, '');
  // A line starting `[…]:` reads as a link reference definition (a link whose text holds `]:` in
  // code): an empty span in front keeps it text, as it keeps two equations apart.
  if (written.startsWith('[') && written.includes(']:')) return `<span></span>${written}`;
  // A line starting `|` reads as a pipe-table row where the block splitter looks for tables;
  // mdast-util-to-markdown leaves it bare (found by the generated round trip).
  return written.startsWith('|') ? `\\${written}` : written;
}

/** What the walk carries down: the annotations and link of the text it is in. */
interface Marks {
  annotations: Annotations;
  link: string | null;
}

const MENTION_TYPES: Record<string, string> = {
  'mention-user': 'user',
  'mention-page': 'page',
  'mention-database': 'database',
  'mention-data-source': 'data_source',
};

/** A mention's `url`: an ID, `user://ID`, `{{…}}` around either, or a link ending in the ID. */
export function idFromMentionUrl(url: string): string | null {
  const bare = url.replace(/^\{\{(.*)\}\}$/, '$1').replace(/^[a-z-]+:\/\//, '');
  const direct = normalizeId(bare);
  if (direct) return direct;
  const tail = /([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[?#].*)?$/i.exec(url);
  return tail ? normalizeId(tail[1]) : null;
}

function mentionItem(name: string, a: Record<string, string>, marks: Marks): RichTextItemInput {
  const annotations = { ...marks.annotations };
  if (name === 'mention-date') {
    if (!a.start) throw new MarkdownSyntaxError('`<mention-date>` needs a `start`');
    const start = a.startTime ? `${a.start}T${a.startTime}:00` : a.start;
    const end = a.end ? (a.endTime ? `${a.end}T${a.endTime}:00` : a.end) : a.endTime ? `${a.start}T${a.endTime}:00` : undefined;
    const date: { start: string; end?: string; time_zone?: string } = { start };
    if (end) date.end = end;
    if (a.timeZone) date.time_zone = a.timeZone;
    return { type: 'mention', mention: { type: 'date', date }, annotations: asRequest(annotations) };
  }
  const type = MENTION_TYPES[name];
  const id = a.url ? idFromMentionUrl(a.url) : null;
  if (!id) throw new MarkdownSyntaxError(`\`<${name}>\` needs a \`url\` naming an ID`);
  return { type: 'mention', mention: { type, [type]: { id } } as never, annotations: asRequest(annotations) };
}

/** Walks mdast phrasing nodes into rich text items, in order. */
function walk(nodes: readonly PhrasingContent[], marks: Marks, out: RichTextItemInput[]): void {
  const spans: Array<Partial<Annotations>> = [];
  let skippingMention: string | null = null;
  const current = (): Marks => ({ link: marks.link, annotations: Object.assign({ ...marks.annotations }, ...spans) });
  const text = (content: string, code = false) => {
    const m = current();
    out.push({
      type: 'text',
      text: { content, link: m.link ? { url: m.link } : null },
      annotations: asRequest({ ...m.annotations, code: code || m.annotations.code }),
    });
  };
  for (const node of nodes) {
    if (skippingMention) {
      // A mention's inner text is the name the service resolves itself (FACTS.md §10.1 1.4).
      if (node.type === 'html' && readTag(node.value)?.closing && readTag(node.value)?.name === skippingMention) skippingMention = null;
      continue;
    }
    switch (node.type) {
      case 'text':
        text(node.value);
        break;
      case 'inlineCode':
        text(node.value, true);
        break;
      case 'inlineMath':
        out.push({ type: 'equation', equation: { expression: node.value }, annotations: asRequest({ ...current().annotations }) });
        break;
      case 'break':
        text('\n');
        break;
      case 'strong':
        walk(node.children, { ...current(), annotations: { ...current().annotations, bold: true } }, out);
        break;
      case 'emphasis':
        walk(node.children, { ...current(), annotations: { ...current().annotations, italic: true } }, out);
        break;
      case 'delete':
        walk(node.children, { ...current(), annotations: { ...current().annotations, strikethrough: true } }, out);
        break;
      case 'link':
        walk(node.children, { ...current(), link: node.url }, out);
        break;
      case 'html': {
        const tag = readTag(node.value);
        if (!tag || tag.length !== node.value.length) throw new MarkdownSyntaxError(`\`${cut(node.value)}\` is not an NFM tag`);
        if (tag.name === 'br') text('\n');
        else if (tag.name === 'span' && tag.closing) {
          if (!spans.pop()) throw new MarkdownSyntaxError('`</span>` closes no `<span>`');
        } else if (tag.name === 'span') {
          const span: Partial<Annotations> = {};
          if (tag.attrs.underline === 'true') span.underline = true;
          if (tag.attrs.color) span.color = fromNfmColor(tag.attrs.color);
          spans.push(span);
        } else if (tag.name in MENTION_TYPES || tag.name === 'mention-date') {
          if (tag.closing) throw new MarkdownSyntaxError(`\`</${tag.name}>\` closes nothing`);
          out.push(mentionItem(tag.name, tag.attrs, current()));
          if (!tag.selfClosing) skippingMention = tag.name;
        } else throw new MarkdownSyntaxError(`\`<${tag.name}>\` is not an inline NFM tag`);
        break;
      }
      default:
        throw new MarkdownSyntaxError(`${node.type} is not inline content`);
    }
  }
  if (spans.length) throw new MarkdownSyntaxError('a `<span>` is not closed');
  if (skippingMention) throw new MarkdownSyntaxError(`a \`<${skippingMention}>\` is not closed`);
}

const sameMarks = (a: RichTextItemInput, b: RichTextItemInput) =>
  JSON.stringify(a.annotations) === JSON.stringify(b.annotations) && 'text' in a && 'text' in b && (a.text.link?.url ?? null) === (b.text.link?.url ?? null);

/** Adjacent text of the same marks is one item; an item holds at most 2,000 characters (the API's limit). */
function canonical(items: readonly RichTextItemInput[]): RichTextItemInput[] {
  const merged: RichTextItemInput[] = [];
  for (const item of items) {
    const last = merged[merged.length - 1];
    if (last && 'text' in last && 'text' in item && sameMarks(last, item)) last.text = { ...last.text, content: last.text.content + item.text.content };
    else merged.push(item);
  }
  return merged.flatMap((item) => {
    if (!('text' in item) || item.text.content.length <= LIMITS.textContent) return [item];
    const parts: RichTextItemInput[] = [];
    for (let i = 0; i < item.text.content.length; i += LIMITS.textContent) {
      parts.push({ ...item, text: { ...item.text, content: item.text.content.slice(i, i + LIMITS.textContent) } });
    }
    return parts;
  });
}

/** Phrasing nodes (of one block's text) as rich text items. */
export function phrasingToRichText(nodes: readonly PhrasingContent[]): RichTextItemInput[] {
  const out: RichTextItemInput[] = [];
  walk(nodes, { annotations: { ...DEFAULT_ANNOTATIONS }, link: null }, out);
  return canonical(out);
}

/** NFM inline markdown as rich text items (request shape); block syntax in it is an error. */
export function markdownToRichText(markdown: string): RichTextItemInput[] {
  const root = readCommonMark(markdown);
  const nodes: PhrasingContent[] = [];
  root.children.forEach((child: RootContent, i) => {
    if (i > 0) nodes.push(html('<br>'));
    // A line that is one inline tag (`<br>`, `<mention-user …/>`) reads as an HTML block in CommonMark.
    if (child.type === 'html' && readTag(child.value)) nodes.push(html(child.value));
    else if (child.type === 'paragraph') nodes.push(...child.children);
    else throw new MarkdownSyntaxError(`${child.type} is not inline content`);
  });
  return phrasingToRichText(nodes);
}

import type { InlineItem } from './nodes.js';
import { toNfmColor } from './colors.js';
import { attrs } from './tags.js';

/**
 * The common case of rich text → NFM, written directly: mdast-util-to-markdown takes a tenth of a
 * millisecond per block, a hundred times the budget of a 1,000-block page (bench/markdown). This
 * path takes only what it can write safely (docs/decisions.md "Markdown") and answers null for
 * the rest, which inline.ts hands to mdast-util-to-markdown:
 * - every special character of text is backslash-escaped (CommonMark allows it before any ASCII
 *   punctuation), so text never reads as syntax; `!` only where a link follows it (`![` opens an
 *   image), so ordinary text keeps its exclamation marks bare;
 * - bold, italic and strikethrough wrap only text that starts and ends with a letter or digit, so
 *   their delimiters always flank (CommonMark §6.2), whatever stands beside them;
 * - the line neither starts nor ends with whitespace (it would be trimmed), code holds no
 *   backtick, math no `$`, and links are plain URLs.
 */

const SPECIAL = /[\\*_~`$[\]<>{}|^&]/g;
const WORD_EDGES = /^[\p{L}\p{N}](?:.*[\p{L}\p{N}])?$/su;

interface Annotated {
  bold: boolean;
  italic: boolean;
  strikethrough: boolean;
  underline: boolean;
  code: boolean;
  color: string;
}

function marksOf(item: InlineItem): Annotated {
  const a = item.annotations ?? {};
  return {
    bold: a.bold ?? false,
    italic: a.italic ?? false,
    strikethrough: a.strikethrough ?? false,
    underline: a.underline ?? false,
    code: a.code ?? false,
    color: a.color ?? 'default',
  };
}

/** `<span …>` attributes by underline and colour: a page repeats a handful of them. */
const spans = new Map<string, string>();
function spanAttrs(underline: boolean, color: string): string {
  const key = `${underline}:${color}`;
  let value = spans.get(key);
  if (value === undefined) {
    value = attrs({ underline: underline ? 'true' : undefined, color: color === 'default' ? undefined : toNfmColor(color) });
    spans.set(key, value);
  }
  return value;
}

const NEEDS_ESCAPE = /[\\*_~`$[\]<>{}|^&\n]/;
const escapeText = (text: string) => (NEEDS_ESCAPE.test(text) ? text.replace(SPECIAL, '\\$&').replace(/\n/g, '<br>') : text);

/** One item's own markdown (no link, span or emphasis), or null when this path cannot write it. */
function leaf(item: InlineItem, marks: Annotated): string | null {
  const emphasised = marks.bold || marks.italic || marks.strikethrough;
  if (item.equation || item.type === 'equation') {
    const expression = item.equation?.expression ?? '';
    if (emphasised || !expression || expression.includes('$') || /^\s|\s$|\n/.test(expression)) return null;
    return `$${expression}$`;
  }
  if (item.mention || item.type === 'mention') {
    const mention = item.mention ?? {};
    const type = String(mention.type);
    const body = (mention[type] ?? {}) as Record<string, unknown>;
    if (emphasised || !['user', 'page', 'database', 'data_source'].includes(type)) return null;
    return `<mention-${type.replace('_', '-')}${attrs({ url: String(body.id) })}/>`;
  }
  const content = item.text?.content ?? item.plain_text ?? '';
  if (content === '') return null;
  if (marks.code) {
    if (emphasised || content.includes('`') || content.includes('\n') || /^\s|\s$/.test(content)) return null;
    return `\`${content}\``;
  }
  if (emphasised && !WORD_EDGES.test(content)) return null;
  return escapeText(content);
}

type Wrapper = { kind: 'link' | 'span' | 'bold' | 'italic' | 'strike'; value: string };

const OPEN: Record<Wrapper['kind'], (value: string) => string> = {
  link: () => '[',
  span: (value) => `<span${value}>`,
  bold: () => '**',
  italic: () => '*',
  strike: () => '~~',
};
const CLOSE: Record<Wrapper['kind'], (value: string) => string> = {
  link: (value) => `](${value})`,
  span: () => '</span>',
  bold: () => '**',
  italic: () => '*',
  strike: () => '~~',
};

function wrappersOf(item: InlineItem, marks: Annotated): Wrapper[] {
  const out: Wrapper[] = [];
  const link = item.text?.link?.url ?? null;
  if (link !== null) out.push({ kind: 'link', value: link });
  if (marks.underline || marks.color !== 'default') {
    out.push({
      kind: 'span',
      value: spanAttrs(marks.underline, marks.color),
    });
  }
  if (marks.bold) out.push({ kind: 'bold', value: '' });
  if (marks.italic) out.push({ kind: 'italic', value: '' });
  if (marks.strikethrough) out.push({ kind: 'strike', value: '' });
  return out;
}

const sameWrapper = (a: Wrapper, b: Wrapper) => a.kind === b.kind && a.value === b.value;
const isSpace = (c: string | undefined) => c === undefined || /\s/u.test(c);
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** A delimiter run written at `at`: it must open (left-flanking) or close (right-flanking), alone (CommonMark §6.2). */
interface Delimiter {
  at: number;
  length: number;
  opens: boolean;
}

function delimitersHold(out: string, delimiters: readonly Delimiter[]): boolean {
  for (const { at, length, opens } of delimiters) {
    const mark = out[at];
    const before = out[at - 1];
    const after = out[at + length];
    // A neighbour of the same character would merge into one run, read by rules this path does not follow.
    if (before === mark || after === mark) return false;
    if (opens && (isSpace(after) || (isPunct(after) && !(before === undefined || isSpace(before) || isPunct(before))))) return false;
    if (!opens && (isSpace(before) || (isPunct(before) && !(after === undefined || isSpace(after) || isPunct(after))))) return false;
  }
  return true;
}

/** Rich text as NFM inline markdown, or null when the general writer must do it. */
export function fastRichText(items: readonly InlineItem[]): string | null {
  let out = '';
  let open: Wrapper[] = [];
  const delimiters: Delimiter[] = [];
  const write = (text: string, kind: Wrapper['kind'], opens: boolean) => {
    if (kind === 'bold' || kind === 'italic' || kind === 'strike') delimiters.push({ at: out.length, length: text.length, opens });
    out += text;
  };
  const closeTo = (keep: number) => {
    for (let i = open.length - 1; i >= keep; i--) write(CLOSE[open[i].kind](open[i].value), open[i].kind, false);
    open = open.slice(0, keep);
  };
  for (const item of items) {
    const marks = marksOf(item);
    const own = leaf(item, marks);
    if (own === null) return null;
    const wanted = wrappersOf(item, marks);
    const link = wanted.find((w) => w.kind === 'link');
    if (link && !/^[^\s()<>\\]+$/.test(link.value)) return null;
    // Wrappers both items share stay open; the rest close, innermost first, and the new ones open.
    let shared = 0;
    while (shared < open.length && shared < wanted.length && sameWrapper(open[shared], wanted[shared])) shared++;
    closeTo(shared);
    for (const w of wanted.slice(shared)) {
      // Text ending in `!` before a link's `[` would make it an image.
      if (w.kind === 'link' && out.endsWith('!')) out = `${out.slice(0, -1)}\\!`;
      write(OPEN[w.kind](w.value), w.kind, true);
    }
    open = wanted;
    // Two equations side by side would read as one (`$a$$b$`): an empty span keeps them apart.
    if (out.endsWith('$') && !out.endsWith('\\$') && own.startsWith('$')) out += '<span></span>';
    out += own;
  }
  closeTo(0);
  if (/^\s|\s$/.test(out) || !delimitersHold(out, delimiters)) return null;
  // What would start a block at the line's start is escaped (ATX heading, list item, setext line).
  return out.replace(/^([#+=-])/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

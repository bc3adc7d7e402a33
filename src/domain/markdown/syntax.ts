import { fromMarkdown, type Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Root } from 'mdast';
import type { Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import type { Extension as MicromarkExtension } from 'micromark-util-types';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmStrikethroughFromMarkdown, gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTableFromMarkdown, gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmTaskListItemFromMarkdown, gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import { math } from 'micromark-extension-math';
import { mathFromMarkdown, mathToMarkdown } from 'mdast-util-math';

/**
 * The CommonMark extensions NFM v1 uses (FACTS.md §10.1): `~~strike~~`, pipe tables, `- [ ]`
 * to-dos, `$…$` and `$$…$$`. Not the whole of GFM: autolinked bare URLs, footnotes and the tag
 * filter are not NFM, and would change text the service keeps as written.
 */
export const PARSE_OPTIONS: { extensions: MicromarkExtension[]; mdastExtensions: FromMarkdownExtension[] } = {
  extensions: [gfmStrikethrough({ singleTilde: false }), gfmTable(), gfmTaskListItem(), math({ singleDollarTextMath: true })],
  mdastExtensions: [gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown(), mathFromMarkdown()],
};

/** Serialisation: `*` emphasis, `**` strong, and `{` escaped so text never reads as a `{color=…}` list. */
export const SERIALIZE_OPTIONS: ToMarkdownOptions = {
  extensions: [gfmStrikethroughToMarkdown(), gfmTableToMarkdown(), gfmTaskListItemToMarkdown(), mathToMarkdown({ singleDollarTextMath: true })],
  emphasis: '*',
  strong: '*',
  bullet: '-',
  fences: true,
  unsafe: [
    { character: '{', inConstruct: 'phrasing' },
    { character: '}', inConstruct: 'phrasing' },
  ],
};

/** Markdown the converter cannot read as blocks or rich text: the commands name the field it came in. */
export class MarkdownSyntaxError extends Error {}

/**
 * Emphasis and link delimiters one read may hold, of each kind. micromark pairs delimiters in time
 * that grows with the square of their count (`*` × 20,000 on each side of a word, 40 KB: 141 s of
 * one core, the whole server stalled; `[` × 20,000 then `]` × 20,000: 4 s), and the nesting they
 * make is walked recursively after. 1,000 of a kind reads in well under 0.2 s (issue 29;
 * docs/decisions.md).
 */
export const MAX_DELIMITERS = 1000;

function checkDelimiters(text: string): void {
  let emphasis = 0;
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 42 || c === 95)
      emphasis++; // * _
    else if (c === 91) brackets++; // [
  }
  if (emphasis > MAX_DELIMITERS) throw new MarkdownSyntaxError(`a block holds more than ${MAX_DELIMITERS} \`*\` and \`_\`: emphasis this dense is not read`);
  if (brackets > MAX_DELIMITERS) throw new MarkdownSyntaxError(`a block holds more than ${MAX_DELIMITERS} \`[\`: links this dense are not read`);
}

/**
 * CommonMark with NFM's extensions, after a bound on the delimiters its inline reading pairs.
 * `verbatim`: a fenced code block or equation, whose content is never read as inline markdown.
 */
export function readCommonMark(text: string, verbatim = false): Root {
  if (!verbatim) checkDelimiters(text);
  return fromMarkdown(text, PARSE_OPTIONS);
}

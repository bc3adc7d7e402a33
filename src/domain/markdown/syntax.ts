import type { Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
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

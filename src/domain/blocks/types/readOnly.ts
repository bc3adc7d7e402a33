import { PLAIN, presentFields, type BlockMarkdown, type ReadOnlyBlockTypeDefinition } from './definition.js';
import type { MarkdownBlock, RenderContext } from '../../markdown/nodes.js';
import { keepFrom, rich, tagBlock, tagged } from '../../markdown/forms.js';
import { richTextToMarkdown } from '../../markdown/inline.js';
import { attrs } from '../../markdown/tags.js';

/**
 * Pages, databases and meeting notes are written as a tag naming them by `url`; reading one back
 * keeps the object it names as it is (markdown does not create, rename or edit them), and leaving
 * one out of an edit deletes it (FACTS.md §10.1 1.3, 1.6).
 */
const titled = (name: string, extra: (block: MarkdownBlock) => Record<string, string | undefined> = () => ({})): BlockMarkdown => ({
  render: (block, ctx) => [
    `<${name}${attrs({ url: ctx.urlOf(block.id), ...extra(block) })}>${richTextToMarkdown([{ type: 'text', text: { content: String(block.member.title ?? '') } }])}</${name}>`,
  ],
  parse: (node) => (tagged(node, name) ? keepFrom(tagged(node, name)!.attrs.url, name) : null),
});

/** Meeting notes: the title, then the summary and notes toggles' content, and the transcript's only when asked. */
function renderMeetingNotes(block: MarkdownBlock, ctx: RenderContext): string[] {
  const ids = (block.member.children ?? {}) as { summary_block_id?: string; notes_block_id?: string; transcript_block_id?: string };
  const inside = [`\t${rich(block.member, 'title') || '<empty-block/>'}`];
  for (const child of block.children) {
    const section =
      child.id === ids.summary_block_id ? 'summary' : child.id === ids.notes_block_id ? 'notes' : child.id === ids.transcript_block_id ? 'transcript' : null;
    if (section === 'transcript' && !ctx.includeTranscript) inside.push(`\t<transcript${attrs({ url: ctx.urlOf(child.id) })}/>`);
    else if (section) inside.push(...tagBlock(section, {}, ctx.indent(child.children)).map((line) => `\t${line}`));
    else inside.push(...ctx.indent([child]));
  }
  return tagBlock('meeting-notes', { url: ctx.urlOf(block.id) }, inside);
}

/**
 * Types the API presents but does not accept in a request: pages and databases seen as blocks
 * (same id), meeting notes (written through their own endpoint), and templates (deprecated).
 */

export const childPage: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  holds: 'blocks',
  present: (row) => ({ title: row.title }),
  markdown: titled('page'),
};

export const childDatabase: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  present: (row) => ({ title: row.title }),
  markdown: titled('database'),
};

export const meetingNotes: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  present: presentFields('title', 'status', 'children', 'calendar_event', 'recording'),
  markdown: {
    render: renderMeetingNotes,
    parse: (node) => (tagged(node, 'meeting-notes') ? keepFrom(tagged(node, 'meeting-notes')!.attrs.url, 'meeting-notes') : null),
  },
};

/** Kept for the 2022-02-22 rename (its member held `text`); shown as a type the server does not know. */
export const template: ReadOnlyBlockTypeDefinition = {
  ...PLAIN,
  request: null,
  richText: true,
  present: () => ({ block_type: 'template' }),
};

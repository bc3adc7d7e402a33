import { Type, type TProperties, type TSchema } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { childrenArray, Color, Icon, RichText, type BlockIconInput } from '../../../schemas/blocks.js';
import type { FieldPath } from '../../../errors/validationFailure.js';
import { refuseFileUpload } from '../blockChecks.js';
import { presentIcon } from '../icons.js';
import { PLAIN, presentFields, type BlockMarkdown, type ContentInput, type Member, type WritableBlockTypeDefinition } from './definition.js';
import {
  attrSuffix,
  colorFrom,
  headingOf,
  nfmColor,
  paragraphOf,
  phrasingIn,
  rich,
  richFrom,
  richFromText,
  tagBlock,
  tagged,
  withChildren,
} from '../../markdown/forms.js';

/** Children of the next nesting level, when the level allows them. */
export const kidsOf = (next: TSchema | null): TProperties => (next ? { children: Type.Optional(childrenArray(next)) } : {});

/** The shape every text block shares: rich text and a colour, children of its own, a markdown form to come. */
export function textBlock(
  fields: TProperties,
  updateFields: TProperties,
  build: (content: ContentInput) => Promise<Member>,
  present: readonly string[],
  extra: Partial<WritableBlockTypeDefinition> = {},
): WritableBlockTypeDefinition {
  return {
    ...PLAIN,
    richText: true,
    holds: 'blocks',
    request: {
      create: (next) => StrictObject({ rich_text: RichText, color: Type.Optional(Color), ...fields, ...kidsOf(next) }),
      update: StrictObject({ rich_text: Type.Optional(RichText), color: Type.Optional(Color), ...updateFields }),
      deepestLevel: 2,
      build,
    },
    present: presentFields(...present),
    ...extra,
  };
}

/** An icon given as a file upload is refused until uploads attach (src/domain/blocks/blockChecks.ts). */
const iconChecks: Partial<WritableBlockTypeDefinition> = {
  checkNew(member: Member, at: FieldPath) {
    if (member.icon) refuseFileUpload(member.icon, [...at, 'icon']);
  },
  async checkEdit(_db, _row, member: Member, at: FieldPath) {
    if (member.icon) refuseFileUpload(member.icon, [...at, 'icon']);
  },
};

const iconOf = ({ input, base }: ContentInput) => ('icon' in input ? presentIcon(input.icon as BlockIconInput | null) : (base.icon ?? null));
const withIcon = { icon: Type.Optional(Icon) };
const withIconUpdate = { icon: Type.Optional(Type.Union([Icon, Type.Null()])) };

export const paragraph = textBlock(
  withIcon,
  withIconUpdate,
  async (c) => ({ rich_text: await c.rich('rich_text'), color: c.color(), icon: iconOf(c) }),
  ['rich_text', 'color', 'icon'],
  { ...iconChecks, markdown: paragraphMarkdown() },
);

export const callout = textBlock(
  withIcon,
  withIconUpdate,
  async (c) => ({ rich_text: await c.rich('rich_text'), icon: iconOf(c), color: c.color() }),
  ['rich_text', 'icon', 'color'],
  { ...iconChecks, markdown: calloutMarkdown() },
);

const toggleable = { is_toggleable: Type.Optional(Type.Boolean()) };
const heading = (level: 1 | 2 | 3 | 4) =>
  textBlock(
    toggleable,
    toggleable,
    async (c) => ({ rich_text: await c.rich('rich_text'), is_toggleable: c.keep('is_toggleable', false), color: c.color() }),
    ['rich_text', 'is_toggleable', 'color'],
    { markdown: headingMarkdown(level) },
  );
export const heading1 = heading(1);
export const heading2 = heading(2);
export const heading3 = heading(3);
export const heading4 = heading(4);

/** Rich text and a colour, nothing else (toggles, quotes, bulleted list items). */
export const plainText = (markdown: BlockMarkdown) =>
  textBlock({}, {}, async (c) => ({ rich_text: await c.rich('rich_text'), color: c.color() }), ['rich_text', 'color'], { markdown });
export const toggle = plainText(toggleMarkdown());
export const quote = plainText(quoteMarkdown());

const checked = { checked: Type.Optional(Type.Boolean()) };
export const toDo = textBlock(
  checked,
  checked,
  async (c) => ({ rich_text: await c.rich('rich_text'), checked: c.keep('checked', false), color: c.color() }),
  ['rich_text', 'checked', 'color'],
  { markdown: toDoMarkdown() },
);

/*
 * Markdown forms (FACTS.md §10.1 1.3). A text block is one line, its colour in a `{color="…"}`
 * list at the end, its children one tab deeper.
 */

const colorSuffix = (member: Member, extra: Record<string, string | undefined> = {}) => attrSuffix({ ...extra, color: nfmColor(member) });

function paragraphMarkdown(): BlockMarkdown {
  return {
    // An empty paragraph has a tag of its own: empty lines are dropped on input.
    render: (block, ctx) => withChildren(`${rich(block.member) || '<empty-block/>'}${colorSuffix(block.member)}`, block, ctx),
    parse(node) {
      const empty = tagged(node, 'empty-block');
      if (empty) return { member: { rich_text: [], color: colorFrom(empty.attrs.color ?? node.attrs.color) }, children: node.children };
      const paragraph = paragraphOf(node);
      if (!paragraph || (paragraph.children.length === 1 && paragraph.children[0].type === 'image')) return null;
      return { member: { rich_text: richFrom(paragraph.children), color: colorFrom(node.attrs.color) }, children: node.children };
    },
  };
}

/** `#` to `####`; `#####` and deeper read as heading 4 (FACTS.md §10.1 1.3). */
function headingMarkdown(level: 1 | 2 | 3 | 4): BlockMarkdown {
  return {
    render: (block, ctx) =>
      withChildren(
        `${'#'.repeat(level)} ${rich(block.member)}${colorSuffix(block.member, { toggle: block.member.is_toggleable ? 'true' : undefined })}`,
        block,
        ctx,
      ),
    parse(node) {
      const heading = headingOf(node);
      if (!heading || Math.min(heading.depth, 4) !== level) return null;
      return {
        member: { rich_text: richFrom(heading.children), is_toggleable: node.attrs.toggle === 'true', color: colorFrom(node.attrs.color) },
        children: node.children,
      };
    },
  };
}

function quoteMarkdown(): BlockMarkdown {
  return {
    render: (block, ctx) => withChildren(`> ${rich(block.member)}${colorSuffix(block.member)}`, block, ctx),
    parse(node) {
      if (node.flow?.type !== 'blockquote') return null;
      return { member: { rich_text: richFrom(phrasingIn(node.flow.children, 'A quote')), color: colorFrom(node.attrs.color) }, children: node.children };
    },
  };
}

function toggleMarkdown(): BlockMarkdown {
  return {
    render: (block, ctx) => {
      const [open, ...rest] = tagBlock('details', { color: nfmColor(block.member) }, ctx.children(block));
      return [open, `<summary>${rich(block.member)}</summary>`, ...rest];
    },
    parse(node) {
      const tag = tagged(node, 'details');
      if (!tag) return null;
      return { member: { rich_text: richFromText(node.inner), color: colorFrom(tag.attrs.color) }, children: node.children };
    },
  };
}

function toDoMarkdown(): BlockMarkdown {
  return {
    render: (block, ctx) => withChildren(`- [${block.member.checked ? 'x' : ' '}] ${rich(block.member)}${colorSuffix(block.member)}`, block, ctx),
    parse(node) {
      const list = node.flow?.type === 'list' && node.flow.children.length === 1 ? node.flow : null;
      const item = list?.children[0];
      if (!list || list.ordered || !item || typeof item.checked !== 'boolean') return null;
      return {
        member: { rich_text: richFrom(phrasingIn(item.children, 'A to-do')), checked: item.checked, color: colorFrom(node.attrs.color) },
        children: node.children,
      };
    },
  };
}

/** An icon in an attribute: an emoji, or the link of an image. */
function iconAttr(icon: unknown): string | undefined {
  const i = icon as { type?: string; emoji?: string; external?: { url: string }; file?: { url: string } } | null | undefined;
  if (!i) return undefined;
  return i.type === 'emoji' ? i.emoji : (i.external?.url ?? i.file?.url);
}

function iconFrom(raw: string | undefined): Member | undefined {
  if (!raw) return undefined;
  return /^https?:\/\//.test(raw) ? { type: 'external', external: { url: raw } } : { type: 'emoji', emoji: raw };
}

/** A callout's first inner line is its own text (`<empty-block/>` when it has none); the lines after are its children. */
function calloutMarkdown(): BlockMarkdown {
  return {
    render: (block, ctx) =>
      tagBlock('callout', { icon: iconAttr(block.member.icon), color: nfmColor(block.member) }, [
        `\t${rich(block.member) || '<empty-block/>'}`,
        ...ctx.children(block),
      ]),
    parse(node) {
      const tag = tagged(node, 'callout');
      if (!tag) return null;
      const [first, ...rest] = node.children;
      const text =
        first && (tagged(first, 'empty-block') ? [] : paragraphOf(first) && first.children.length === 0 ? richFrom(paragraphOf(first)!.children) : null);
      const member: Member = { rich_text: text ?? [], color: colorFrom(tag.attrs.color) };
      const icon = iconFrom(tag.attrs.icon);
      if (icon) member.icon = icon;
      return { member, children: text ? rest : node.children };
    },
  };
}

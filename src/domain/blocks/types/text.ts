import { Type, type TProperties, type TSchema } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { childrenArray, Color, Icon, RichText, type BlockIconInput } from '../../../schemas/blocks.js';
import type { FieldPath } from '../../../errors/validationFailure.js';
import { refuseFileUpload } from '../blockChecks.js';
import { presentIcon } from '../icons.js';
import { PLAIN, presentFields, type ContentInput, type Member, type WritableBlockTypeDefinition } from './definition.js';

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
  iconChecks,
);

export const callout = textBlock(
  withIcon,
  withIconUpdate,
  async (c) => ({ rich_text: await c.rich('rich_text'), icon: iconOf(c), color: c.color() }),
  ['rich_text', 'icon', 'color'],
  iconChecks,
);

const toggleable = { is_toggleable: Type.Optional(Type.Boolean()) };
const heading = () =>
  textBlock(toggleable, toggleable, async (c) => ({ rich_text: await c.rich('rich_text'), is_toggleable: c.keep('is_toggleable', false), color: c.color() }), [
    'rich_text',
    'is_toggleable',
    'color',
  ]);
export const heading1 = heading();
export const heading2 = heading();
export const heading3 = heading();
export const heading4 = heading();

/** Rich text and a colour, nothing else (toggles, quotes, bulleted list items). */
export const plainText = () => textBlock({}, {}, async (c) => ({ rich_text: await c.rich('rich_text'), color: c.color() }), ['rich_text', 'color']);
export const toggle = plainText();
export const quote = plainText();

const checked = { checked: Type.Optional(Type.Boolean()) };
export const toDo = textBlock(checked, checked, async (c) => ({ rich_text: await c.rich('rich_text'), checked: c.keep('checked', false), color: c.color() }), [
  'rich_text',
  'checked',
  'color',
]);

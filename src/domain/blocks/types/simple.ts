import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { LIMITS } from '../../../schemas/richText.js';
import { Color, Empty } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type WritableBlockTypeDefinition } from './definition.js';
import { colorFrom, nfmColor, tagged } from '../../markdown/forms.js';
import { attrs } from '../../markdown/tags.js';

/** A block with no fields at all (dividers, breadcrumbs). */
const fieldless = (): WritableBlockTypeDefinition => ({
  ...PLAIN,
  request: { create: () => Empty, update: Empty, deepestLevel: 2, build: async () => ({}) },
  present: presentFields(),
});

export const divider: WritableBlockTypeDefinition = {
  ...fieldless(),
  markdown: { render: () => ['---'], parse: (node) => (node.flow?.type === 'thematicBreak' ? { member: {}, children: node.children } : null) },
};
export const breadcrumb = fieldless();

export const equation: WritableBlockTypeDefinition = {
  ...PLAIN,
  request: {
    create: () => StrictObject({ expression: Type.String({ maxLength: LIMITS.equation }) }),
    update: StrictObject({ expression: Type.Optional(Type.String({ maxLength: LIMITS.equation })) }),
    deepestLevel: 2,
    build: async (c) => ({ expression: c.keep('expression', '') }),
  },
  present: presentFields('expression'),
  markdown: {
    render: (block) => ['$$', ...String(block.member.expression ?? '').split('\n'), '$$'],
    parse: (node) => (node.flow?.type === 'math' ? { member: { expression: node.flow.value }, children: node.children } : null),
  },
};

const colorOnly = StrictObject({ color: Type.Optional(Color) });
export const tableOfContents: WritableBlockTypeDefinition = {
  ...PLAIN,
  request: { create: () => colorOnly, update: colorOnly, deepestLevel: 2, build: async (c) => ({ color: c.color() }) },
  present: presentFields('color'),
  markdown: {
    render: (block) => [`<table_of_contents${attrs({ color: nfmColor(block.member) })}/>`],
    parse(node) {
      const tag = tagged(node, 'table_of_contents');
      return tag ? { member: { color: colorFrom(tag.attrs.color) }, children: node.children } : null;
    },
  },
};

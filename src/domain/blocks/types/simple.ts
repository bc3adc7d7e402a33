import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { LIMITS } from '../../../schemas/richText.js';
import { Color, Empty } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type WritableBlockTypeDefinition } from './definition.js';

/** A block with no fields at all (dividers, breadcrumbs). */
const fieldless = (): WritableBlockTypeDefinition => ({
  ...PLAIN,
  request: { create: () => Empty, update: Empty, deepestLevel: 2, build: async () => ({}) },
  present: presentFields(),
});

export const divider = fieldless();
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
};

const colorOnly = StrictObject({ color: Type.Optional(Color) });
export const tableOfContents: WritableBlockTypeDefinition = {
  ...PLAIN,
  request: { create: () => colorOnly, update: colorOnly, deepestLevel: 2, build: async (c) => ({ color: c.color() }) },
  present: presentFields('color'),
};

import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { BLOCK_SCHEMA_IDS, childrenArray, Empty } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type BlockMarkdown, type WritableBlockTypeDefinition } from './definition.js';
import { tagBlock, tagged } from '../../markdown/forms.js';

/** `<columns>` holding `<column>`s, each holding its blocks one tab deeper (FACTS.md §10.1 1.3); widths have no form. */
const containerMarkdown = (name: string): BlockMarkdown => ({
  render: (block, ctx) => tagBlock(name, {}, ctx.children(block)),
  parse: (node) => (tagged(node, name) ? { member: {}, children: node.children } : null),
});

const WidthRatio = Type.Number({ exclusiveMinimum: 0, maximum: 1 });

/** A column list holds its columns only; both sit at the appended level (columns do not use up a level). */
export const columnList: WritableBlockTypeDefinition = {
  ...PLAIN,
  holds: 'own',
  request: {
    // Columns sit at the column list's own level: their content is the next level.
    create: () => StrictObject({ children: childrenArray(Type.Ref(BLOCK_SCHEMA_IDS.column)) }),
    update: Empty,
    deepestLevel: 0,
    build: async () => ({}),
  },
  present: presentFields(),
  markdown: containerMarkdown('columns'),
};

export const column: WritableBlockTypeDefinition = {
  ...PLAIN,
  holds: 'blocks',
  livesIn: 'column_list',
  request: {
    create: (next) => StrictObject({ width_ratio: Type.Optional(WidthRatio), children: childrenArray(next ?? Empty) }),
    update: StrictObject({ width_ratio: Type.Optional(WidthRatio) }),
    deepestLevel: 0,
    async build({ keep }) {
      const ratio = keep<number | undefined>('width_ratio', undefined);
      return ratio === undefined ? {} : { width_ratio: ratio };
    },
  },
  present: presentFields('width_ratio'),
  markdown: containerMarkdown('column'),
};

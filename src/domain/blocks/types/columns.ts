import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { BLOCK_SCHEMA_IDS, childrenArray, Empty } from '../../../schemas/blocks.js';
import { PLAIN, presentFields, type WritableBlockTypeDefinition } from './definition.js';

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
};

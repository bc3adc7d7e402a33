import { Type } from 'typebox';
import { StrictObject } from '../../../schemas/common.js';
import { LIMITS } from '../../../schemas/richText.js';
import type { RichTextItemInput } from '../../../schemas/richText.js';
import { childrenArray, RichText } from '../../../schemas/blocks.js';
import { findObject } from '../../../storage/repositories/objects.js';
import { parseContent } from '../../contentShapes.js';
import { normalizeRichText } from '../../richText.js';
import { checkRowWidth } from '../blockChecks.js';
import { PLAIN, presentFields, type WritableBlockTypeDefinition } from './definition.js';

const Cells = Type.Array(RichText, { maxItems: LIMITS.arrayItems });
const tableRowMember = StrictObject({ cells: Cells });
const TableRowBlock = StrictObject({
  object: Type.Optional(Type.Literal('block')),
  type: Type.Optional(Type.Literal('table_row')),
  table_row: tableRowMember,
});

/** A table holds its rows only, and is appended with them, so it sits one level above the deepest. */
export const table: WritableBlockTypeDefinition = {
  ...PLAIN,
  holds: 'own',
  request: {
    create: () =>
      StrictObject({
        table_width: Type.Integer({ minimum: 1, maximum: LIMITS.arrayItems }),
        has_column_header: Type.Optional(Type.Boolean()),
        has_row_header: Type.Optional(Type.Boolean()),
        children: childrenArray(TableRowBlock),
      }),
    update: StrictObject({ has_column_header: Type.Optional(Type.Boolean()), has_row_header: Type.Optional(Type.Boolean()) }),
    deepestLevel: 1,
    build: async (c) => ({
      table_width: c.keep('table_width', 1),
      has_column_header: c.keep('has_column_header', false),
      has_row_header: c.keep('has_row_header', false),
    }),
  },
  present: presentFields('table_width', 'has_column_header', 'has_row_header'),
  asParent: (content) => ({ kind: 'table', tableWidth: Number(content.table_width ?? 1) }),
};

/** A row's cells fill its table's width (the service refuses ragged rows). */
export const tableRow: WritableBlockTypeDefinition = {
  ...PLAIN,
  livesIn: 'table',
  request: {
    create: () => tableRowMember,
    update: StrictObject({ cells: Type.Optional(Cells) }),
    deepestLevel: 2,
    async build({ input, base, resolver }) {
      const cells =
        'cells' in input ? await Promise.all((input.cells as RichTextItemInput[][]).map((cell) => normalizeRichText(cell, resolver))) : (base.cells ?? []);
      return { cells };
    },
  },
  present: presentFields('cells'),
  checkNew(member, at, parent) {
    if (parent.tableWidth !== undefined) checkRowWidth((member.cells as unknown[]) ?? [], parent.tableWidth, [...at, 'cells']);
  },
  async checkEdit(db, row, member, at) {
    if (!member.cells || !row.parent_id) return;
    const parentTable = await findObject(db, row.parent_id);
    const width = parentTable ? parseContent<{ table_width?: number }>(parentTable.content).table_width : undefined;
    if (width !== undefined) checkRowWidth(member.cells as unknown[], width, [...at, 'cells']);
  },
};

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
import type { ParsedBlock } from '../../markdown/nodes.js';
import { richFrom, richFromText, tagBlock, tagged } from '../../markdown/forms.js';
import { richTextToMarkdown, type InlineItem } from '../../markdown/inline.js';
import { readTag } from '../../markdown/tags.js';
import { MarkdownSyntaxError } from '../../markdown/syntax.js';

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
  markdown: {
    render: (block, ctx) =>
      tagBlock(
        'table',
        { 'header-row': String(Boolean(block.member.has_column_header)), 'header-column': String(Boolean(block.member.has_row_header)) },
        ctx.children(block),
      ),
    parse(node) {
      // A GFM pipe table, as the docs' complete example writes one: its first row is the header.
      if (node.flow?.type === 'table') {
        const rows: ParsedBlock[] = node.flow.children.map((row) => ({
          kind: 'new',
          type: 'table_row',
          member: { cells: row.children.map((cell) => richFrom(cell.children)) },
          children: [],
          source: '',
        }));
        const width = Math.max(1, ...rows.map((r) => (r.kind === 'new' ? (r.member.cells as unknown[]).length : 0)));
        return { member: { table_width: width, has_column_header: true, has_row_header: false }, children: [], made: rows };
      }
      const tag = tagged(node, 'table');
      if (!tag) return null;
      const width = Math.max(
        1,
        ...node.children.map(
          (row) =>
            cellsOf(
              row.lines[0],
              row.children.map((c) => c.lines[0]),
            ).length,
        ),
      );
      return {
        member: { table_width: width, has_column_header: tag.attrs['header-row'] === 'true', has_row_header: tag.attrs['header-column'] === 'true' },
        children: node.children,
      };
    },
  },
};

/** The `<td>` cells of a row: on the row's own line (`<tr><td>a</td></tr>`) or one per line below it. */
function cellsOf(rowLine: string, cellLines: readonly string[]): string[] {
  const all = [rowLine, ...cellLines].join('');
  const cells: string[] = [];
  for (const match of all.matchAll(/<td(\s[^>]*)?>(.*?)<\/td>/g)) cells.push(match[2]);
  return cells;
}

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
  markdown: {
    render: (block) => ['<tr>', ...((block.member.cells as InlineItem[][] | undefined) ?? []).map((cell) => `\t<td>${richTextToMarkdown(cell)}</td>`), '</tr>'],
    parse(node) {
      const tag = readTag(node.lines[0]);
      if (!tag || tag.closing || tag.name !== 'tr') return null;
      if (!node.lines[0].includes('<td') && node.children.some((c) => !tagged(c, 'td')))
        throw new MarkdownSyntaxError('a `<tr>` should hold `<td>` cells only');
      return {
        member: {
          cells: cellsOf(
            node.lines[0],
            node.children.map((c) => c.lines[0]),
          ).map(richFromText),
        },
        children: [],
      };
    },
  },
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

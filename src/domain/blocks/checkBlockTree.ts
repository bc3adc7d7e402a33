import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { BLOCK_LIMITS, type BlockInput, type WritableBlockType } from '../../schemas/blocks.js';
import { acceptsChild, isWritableBlockType, MEDIA_BLOCK_TYPES } from './blockTypes.js';

/** A request block after the domain checks: its type, its member without children, its children. */
export interface CheckedBlock {
  type: WritableBlockType;
  member: Record<string, unknown>;
  children: CheckedBlock[];
  /** Where it sat in the request body, for later messages (e.g. `["children", 2]`). */
  path: FieldPath;
}

/** The parent the top-level blocks go under: `page`, or a block type, with a table's width. */
export interface ParentKind {
  kind: string;
  tableWidth?: number;
}

/** Exactly one block type member, agreeing with `type` when that is given. */
export function memberOf(block: BlockInput, path: FieldPath): { type: WritableBlockType; member: Record<string, unknown> } {
  const keys = Object.keys(block).filter(isWritableBlockType);
  if (keys.length === 0) throw invalidField(path, 'should have a block type member such as `paragraph`', block);
  if (keys.length > 1) throw invalidField([...path, keys[1]], 'should be not present', block[keys[1]]);
  const type = keys[0];
  if (block.type !== undefined && block.type !== type) throw invalidField([...path, 'type'], `should be ${JSON.stringify(type)}`, block.type);
  return { type, member: block[type] as Record<string, unknown> };
}

/** File uploads arrive with their own issue; until then no upload id exists to attach. */
export function refuseFileUpload(value: unknown, path: FieldPath): void {
  if (value && typeof value === 'object' && 'file_upload' in value) {
    const ref = (value as { file_upload?: { id?: unknown } }).file_upload;
    throw invalidField([...path, 'file_upload', 'id'], 'should be the ID of an uploaded file upload (file upload not found)', ref?.id);
  }
}

/** Cells of a row must fill the table's width (the service refuses ragged rows). */
export function checkRowWidth(cells: readonly unknown[], width: number, path: FieldPath): void {
  if (cells.length !== width) throw invalidField([...path, 'length'], `should be \`${width}\` (the table width)`, cells.length);
}

/**
 * The domain checks a schema cannot express, run on blocks the schema already accepted: one type
 * member per block, children the parent can hold, row widths, no file uploads yet, no duplicate
 * synced block with its own children, and at most 1000 blocks in all (FACTS.md §6).
 */
export function checkBlockTree(blocks: readonly BlockInput[], parent: ParentKind, path: FieldPath = ['children']): CheckedBlock[] {
  let total = 0;
  const walk = (list: readonly BlockInput[], into: ParentKind, at: FieldPath): CheckedBlock[] =>
    list.map((block, index) => {
      total += 1;
      const here = [...at, index];
      const { type, member } = memberOf(block, here);
      if (!acceptsChild(into.kind, type)) {
        throw invalidField([...here, 'type'], `should be a block type that a ${into.kind.replace(/_/g, ' ')} can hold`, type);
      }
      if (type === 'table_row' && into.tableWidth !== undefined) {
        checkRowWidth((member.cells as unknown[]) ?? [], into.tableWidth, [...here, 'table_row', 'cells']);
      }
      if (MEDIA_BLOCK_TYPES.has(type)) refuseFileUpload(member, [...here, type]);
      if ((type === 'paragraph' || type === 'callout') && member.icon) refuseFileUpload(member.icon, [...here, type, 'icon']);
      const { children, ...rest } = member as { children?: BlockInput[]; [field: string]: unknown };
      if (type === 'synced_block' && rest.synced_from !== null && children?.length) {
        throw invalidField([...here, 'synced_block', 'children'], 'should be not present when `synced_from` names the original block', children);
      }
      const childKind: ParentKind = type === 'table' ? { kind: 'table', tableWidth: Number(rest.table_width) } : { kind: type };
      return { type, member: rest, children: children ? walk(children, childKind, [...here, type, 'children']) : [], path: here };
    });
  const checked = walk(blocks, parent, path);
  if (total > BLOCK_LIMITS.totalBlocks) {
    throw invalidField(path, `should hold at most ${BLOCK_LIMITS.totalBlocks} blocks in all`, total);
  }
  return checked;
}

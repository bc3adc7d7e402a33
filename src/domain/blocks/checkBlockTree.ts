import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { BLOCK_LIMITS, type BlockInput } from '../../schemas/blocks.js';
import { acceptsChild } from './blockTypes.js';
import { refuseFileUpload } from './blockChecks.js';
import { BLOCK_TYPE_DEFINITIONS, isWritableBlockType, type WritableBlockType } from './registry.js';
import type { ParentKind } from './types/definition.js';

export { checkRowWidth, refuseFileUpload } from './blockChecks.js';
export type { ParentKind } from './types/definition.js';

/** A request block after the domain checks: its type, its member without children, its children. */
export interface CheckedBlock {
  type: WritableBlockType;
  member: Record<string, unknown>;
  children: CheckedBlock[];
  /** Where it sat in the request body, for later messages (e.g. `["children", 2]`). */
  path: FieldPath;
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

/**
 * The domain checks a schema cannot express, run on blocks the schema already accepted: one type
 * member per block, children the parent can hold, then each type's own checks (registry
 * `checkNew`: row widths, no file uploads yet, …), and at most 1000 blocks in all (FACTS.md §6).
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
      const definition = BLOCK_TYPE_DEFINITIONS[type];
      if (definition.media) refuseFileUpload(member, [...here, type]);
      definition.checkNew?.(member, [...here, type], into);
      const { children, ...rest } = member as { children?: BlockInput[]; [field: string]: unknown };
      const childKind: ParentKind = definition.asParent?.(rest) ?? { kind: type };
      return { type, member: rest, children: children ? walk(children, childKind, [...here, type, 'children']) : [], path: here };
    });
  const checked = walk(blocks, parent, path);
  if (total > BLOCK_LIMITS.totalBlocks) {
    throw invalidField(path, `should hold at most ${BLOCK_LIMITS.totalBlocks} blocks in all`, total);
  }
  return checked;
}

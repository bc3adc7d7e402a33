import type { Db } from '../../storage/db.js';
import type { ObjectAncestorTable, ObjectRow } from '../../storage/schema.js';
import type { BlockInput, ContentPositionInput } from '../../schemas/blocks.js';
import { findObject } from '../../storage/repositories/objects.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { newId, normalizeId } from '../../ids/ids.js';
import { BLOCK_TYPE_DEFINITIONS, blockDefinitionOf } from './registry.js';
import { parseContent } from '../contentShapes.js';
import type { MentionResolver } from '../richText.js';
import { buildBlockContent } from './blockContent.js';
import { checkBlockTree, type CheckedBlock, type ParentKind } from './checkBlockTree.js';
import { childPositionRange, findListedChild, insertRows, loadAncestors, shiftChildren } from '../../storage/repositories/blocks.js';
import { newObjectState } from '../newObjectState.js';

export interface InsertBlockTreeInput {
  workspaceId: string;
  parentType: 'page_id' | 'block_id';
  parentId: string;
  actorId: string;
  /** Blocks as the request carried them, already accepted by BlockRequestArray. */
  children: readonly BlockInput[];
  /** Where the first-level blocks go among the parent's children; the end by default. */
  position?: ContentPositionInput;
  /** Resolves mentions for plain_text and href (createMentionResolver). */
  resolver: MentionResolver;
  /** Path of `children` in the request body, for messages. */
  path?: FieldPath;
  /** The request's one timestamp (the command reads it from its clock). */
  at: string;
  /**
   * What the blocks are checked as going under, when not what the parent is: the server writing
   * under a block no request may add to (a meeting note's results go in as if under a page).
   */
  checkAs?: ParentKind;
}

async function parentKindOf(db: Db, input: InsertBlockTreeInput): Promise<ParentKind> {
  if (input.parentType === 'page_id') return { kind: 'page' };
  const parent = await findObject(db, input.parentId);
  if (!parent) return { kind: 'page' };
  if (parent.object === 'page') return { kind: 'page' };
  if (parent.object !== 'block') return { kind: parent.object };
  const kind = parent.type ?? 'unsupported';
  return blockDefinitionOf(kind)?.asParent?.(parseContent<Record<string, unknown>>(parent.content)) ?? { kind };
}

/** The checks of new blocks that need the store (registry `checkNewInStore`), parents before children. */
async function checkInStore(db: Db, blocks: readonly CheckedBlock[], workspaceId: string): Promise<void> {
  for (const block of blocks) {
    await BLOCK_TYPE_DEFINITIONS[block.type].checkNewInStore?.(db, block.member, [...block.path, block.type], workspaceId);
    await checkInStore(db, block.children, workspaceId);
  }
}

/** Where new blocks go: under which parent, and where among its children. */
type Placement = Pick<InsertBlockTreeInput, 'parentId' | 'position'>;

/** The first free position for `count` new children, opening a gap among the siblings when needed. */
async function reservePositions(db: Db, input: Placement, count: number): Promise<number> {
  const range = await childPositionRange(db, input.parentId);
  const position = input.position ?? { type: 'end' };
  if (position.type === 'end' || !range) {
    if (position.type === 'after_block') await requireListedChild(db, input, position.after_block.id);
    return range ? range.max + 1 : 0;
  }
  const from = position.type === 'start' ? range.min : (await requireListedChild(db, input, position.after_block.id)).position + 1;
  if (count > 0) await shiftChildren(db, input.parentId, from, count);
  return from;
}

async function requireListedChild(db: Db, input: Placement, rawId: string): Promise<ObjectRow> {
  const child = await findListedChild(db, input.parentId, normalizeId(rawId) ?? rawId);
  if (!child) {
    throw invalidField(['position', 'after_block', 'id'], 'should be the ID of a child of the parent block', rawId);
  }
  return child;
}

/**
 * Writes a tree of new blocks under a page or block and returns every inserted row, parents
 * before their children (the first-level ones are those whose parent_id is `parentId`). Runs the
 * domain checks of checkBlockTree (the request schema ran before); the caller owns the
 * transaction and any edit-time bookkeeping of the parent.
 */
export async function insertBlockTree(db: Db, input: InsertBlockTreeInput): Promise<ObjectRow[]> {
  const checked = checkBlockTree(input.children, input.checkAs ?? (await parentKindOf(db, input)), input.path);
  await checkInStore(db, checked, input.workspaceId);
  const parentAncestors = await loadAncestors(db, input.parentId);
  const first = await reservePositions(db, input, checked.length);
  const at = input.at;
  const rows: ObjectRow[] = [];
  const closure: ObjectAncestorTable[] = [];

  const add = async (
    block: CheckedBlock,
    parentType: 'page_id' | 'block_id',
    parentId: string,
    ancestors: readonly { ancestor_id: string; depth: number }[],
    position: number,
  ) => {
    const content = await buildBlockContent(block.type, block.member, input.resolver);
    const row: ObjectRow = {
      id: newId(),
      workspace_id: input.workspaceId,
      object: 'block',
      type: block.type,
      parent_type: parentType,
      parent_id: parentId,
      position,
      title: '',
      content: JSON.stringify(content),
      ...newObjectState(input.actorId, at),
    };
    rows.push(row);
    const own = [{ ancestor_id: row.id, depth: 0 }, ...ancestors.map((a) => ({ ancestor_id: a.ancestor_id, depth: a.depth + 1 }))];
    for (const a of own) closure.push({ ancestor_id: a.ancestor_id, descendant_id: row.id, depth: a.depth });
    for (let i = 0; i < block.children.length; i++) await add(block.children[i], 'block_id', row.id, own, i);
  };
  for (let i = 0; i < checked.length; i++) await add(checked[i], input.parentType, input.parentId, parentAncestors, first + i);
  await insertRows(db, rows, closure);
  return rows;
}

export interface ServerBlockInput {
  workspaceId: string;
  parentType: 'page_id' | 'block_id';
  parentId: string;
  actorId: string;
  type: string;
  /** The stored member, built by the server (a type no request may write, such as meeting_notes). */
  content: Record<string, unknown>;
  position?: ContentPositionInput;
  at: string;
}

/**
 * Writes one block the server itself composes (a meeting notes block): no request checks, since
 * no caller wrote its member, but the same positions and closure rows as any other block.
 */
export async function insertServerBlock(db: Db, input: ServerBlockInput): Promise<ObjectRow> {
  const position = await reservePositions(db, input, 1);
  const ancestors = await loadAncestors(db, input.parentId);
  const row: ObjectRow = {
    id: newId(),
    workspace_id: input.workspaceId,
    object: 'block',
    type: input.type,
    parent_type: input.parentType,
    parent_id: input.parentId,
    position,
    title: '',
    content: JSON.stringify(input.content),
    ...newObjectState(input.actorId, input.at),
  };
  const closure = [{ ancestor_id: row.id, depth: 0 }, ...ancestors.map((a) => ({ ancestor_id: a.ancestor_id, depth: a.depth + 1 }))].map((a) => ({
    ancestor_id: a.ancestor_id,
    descendant_id: row.id,
    depth: a.depth,
  }));
  await insertRows(db, [row], closure);
  return row;
}

import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { MarkdownBlock } from '../../domain/markdown/nodes.js';
import type { HiddenBlock } from '../../domain/markdown/render.js';
import { blockDefinitionOf } from '../../domain/blocks/registry.js';
import { listChildrenOfMany } from '../../storage/repositories/contentTree.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import { isWithin } from '../../storage/repositories/objectAncestors.js';
import { childrenSourceId } from '../blocks/loadBlock.js';

/**
 * The most blocks one markdown read renders (FACTS.md §10.1 1.5: "approximately 20,000"); the
 * blocks past it are written `<unknown>`, listed, and the answer says `truncated`.
 */
export const MARKDOWN_BLOCK_LIMIT = 20_000;

export interface ContentTree {
  /** The root's content: a page's blocks, or a block itself with its content. */
  blocks: MarkdownBlock[];
  truncated: boolean;
}

/** What a row is as a block: pages and databases in a page's content are child_page and child_database. */
function blockOf(row: ObjectRow): MarkdownBlock {
  const type = row.object === 'page' ? 'child_page' : row.object === 'database' ? 'child_database' : (row.type ?? 'unsupported');
  const definition = blockDefinitionOf(type);
  return { id: row.id, type, member: definition ? definition.present(row) : {}, children: [] };
}

const hidden = (block: MarkdownBlock): HiddenBlock => ({ ...block, children: [], hidden: true });

/**
 * Loads the content under `root` level by level (one query per level), up to `limit` blocks.
 * Pages and databases inside are shown, not entered. A synced copy shows its original's content,
 * unless the original is not shared with the caller (then the copy is hidden: FACTS.md §10.1 1.5).
 */
export async function loadContentTree(db: Db, caller: Caller, root: ObjectRow, limit = MARKDOWN_BLOCK_LIMIT): Promise<ContentTree> {
  const top: MarkdownBlock[] = [];
  let blocks = top;
  let count = 0;
  let truncated = false;
  // Where each loaded parent's children go: several synced copies may show one original.
  let pending = new Map<string, MarkdownBlock[][]>();
  if (root.object === 'block') {
    const self = blockOf(root);
    top.push(self);
    count = 1;
    blocks = self.children;
  }
  pending.set(childrenSourceId(root), [blocks]);
  while (pending.size > 0) {
    const rows = await listChildrenOfMany(db, [...pending.keys()]);
    const next = new Map<string, MarkdownBlock[][]>();
    for (const row of rows) {
      let block = blockOf(row);
      if (count >= limit) {
        truncated = true;
        block = hidden(block);
      } else if (row.object === 'block') {
        const source = childrenSourceId(row);
        if (source !== row.id && !(await showsOriginal(db, caller, row, source))) block = hidden(block);
        else next.set(source, [...(next.get(source) ?? []), block.children]);
      }
      count++;
      for (const target of pending.get(row.parent_id!) ?? []) target.push(block);
    }
    pending = next;
  }
  return { blocks: top, truncated };
}

/** A synced copy shows its original when the caller may see it and it does not hold the copy (no loop). */
async function showsOriginal(db: Db, caller: Caller, copy: ObjectRow, originalId: string): Promise<boolean> {
  const found = await findObjectForConnection(db, originalId, caller.connectionId);
  if (!found || !found.shared || found.row.workspace_id !== caller.workspaceId || found.row.in_trash === 1) return false;
  return !(await isWithin(db, originalId, copy.id));
}

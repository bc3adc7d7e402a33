import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { BlockInput } from '../../schemas/blocks.js';
import type { MarkdownBlock, MarkdownNode, ParsedBlock } from '../../domain/markdown/nodes.js';
import { readNodes } from './readMarkdown.js';
import type { MentionResolver } from '../../domain/richText.js';
import { insertBlockTree } from '../../domain/blocks/insertBlockTree.js';
import { checkMemberShapes } from '../../domain/blocks/checkMemberShapes.js';
import { resolveEmojiNames } from './customEmojiNames.js';
import { moveObject } from '../../domain/moveObject.js';
import { setTrashed } from '../../domain/trash.js';
import { validationError } from '../../errors/registry.js';
import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { setChildPositions } from '../../storage/repositories/contentTree.js';

/**
 * Writes a page's edited markdown back as blocks (docs/decisions.md "Markdown"): the top-level
 * blocks before the first changed one and after the last changed one keep their ids (their text is
 * unchanged); the changed span is replaced: its old blocks go to the trash and the new ones are
 * written through insertBlockTree, the path JSON children take. A block named by `url` in the new
 * text (`<page>`, `<database>`, `<meeting-notes>`, `<unknown>`, inside the changed span) is kept
 * and moved where the text puts it. Deleting a child page or database needs `allow_deleting_content`.
 */
export interface ApplyMarkdownInput {
  caller: Caller;
  pageId: string;
  /** The page's content as it was rendered: its top-level blocks and each one's text. */
  old: { blocks: readonly MarkdownBlock[]; topLevel: readonly string[] };
  /** The new markdown split into blocks (read here, only where it changed), and its text for messages. */
  nodes: readonly MarkdownNode[];
  markdown: string;
  allowDeleting: boolean;
  field: FieldPath;
  resolver: MentionResolver;
  at: string;
  /** The server's public address, for the links of custom emojis read from `:name:`. */
  publicUrl: string;
}

/** A block whose children are another's (a synced copy): those are not this page's to delete or keep. */
const showsOthers = (block: MarkdownBlock) => block.type === 'synced_block' && Boolean(block.member.synced_from);

function walkOwn(
  blocks: readonly MarkdownBlock[],
  visit: (block: MarkdownBlock, parent: MarkdownBlock | null) => boolean,
  parent: MarkdownBlock | null = null,
): void {
  for (const block of blocks) if (visit(block, parent) && !showsOthers(block)) walkOwn(block.children, visit, block);
}

function keptIds(blocks: readonly ParsedBlock[], out: string[] = []): string[] {
  for (const block of blocks) {
    if (block.kind === 'keep') out.push(block.id);
    else keptIds(block.children, out);
  }
  return out;
}

/** New blocks as request blocks, leaving out the kept ones (moved in afterwards). */
function requestBlocks(blocks: readonly ParsedBlock[]): BlockInput[] {
  return blocks.flatMap((block) => {
    if (block.kind === 'keep') return [];
    const member: Record<string, unknown> = { ...block.member };
    const children = requestBlocks(block.children);
    if (children.length) member.children = children;
    return [{ type: block.type, [block.type]: member } as BlockInput];
  });
}

export async function applyMarkdown(db: Db, input: ApplyMarkdownInput): Promise<void> {
  const { blocks: old, topLevel } = input.old;
  const nodes = input.nodes;
  let head = 0;
  while (head < old.length && head < nodes.length && topLevel[head] === nodes[head].source) head++;
  let tail = 0;
  while (tail < old.length - head && tail < nodes.length - head && topLevel[old.length - 1 - tail] === nodes[nodes.length - 1 - tail].source) tail++;
  const oldSpan = old.slice(head, old.length - tail);
  // The unchanged blocks are the page's own text: only the changed span is read (and so checked).
  const newSpan = readNodes(nodes.slice(head, nodes.length - tail), input.markdown, input.field);

  // What the changed span held, and what the new text keeps of it.
  const inSpan = new Map<string, { block: MarkdownBlock; parent: MarkdownBlock | null }>();
  walkOwn(oldSpan, (block, parent) => (inSpan.set(block.id, { block, parent }), true));
  const kept = keptIds(newSpan);
  const keptSet = new Set(kept);
  for (const id of kept) {
    if (!inSpan.has(id)) throw invalidField(input.field, 'should name by `url` only blocks of this page, each once, in the part the edit changes', id);
  }
  if (keptSet.size !== kept.length) throw invalidField(input.field, 'should name each existing block once', kept);

  const deletedObjects: MarkdownBlock[] = [];
  walkOwn(oldSpan, (block) => {
    if (keptSet.has(block.id)) return false;
    if (block.type === 'child_page' || block.type === 'child_database') deletedObjects.push(block);
    return true;
  });
  if (deletedObjects.length && !input.allowDeleting) {
    const named = deletedObjects.map((b) => `${b.type === 'child_page' ? 'page' : 'database'} "${String(b.member.title ?? '')}" (${b.id})`).join(', ');
    throw validationError(`This edit would delete ${named}. Set \`allow_deleting_content\` to true to delete them.`);
  }

  const { caller, pageId, at } = input;
  await resolveEmojiNames(db, input.caller.workspaceId, input.publicUrl, newSpan);
  const requests = requestBlocks(newSpan);
  checkMemberShapes(requests, input.field);
  const rows = requests.length
    ? await insertBlockTree(db, {
        workspaceId: caller.workspaceId,
        parentType: 'page_id',
        parentId: pageId,
        actorId: caller.botId,
        children: requests,
        position: { type: 'end' },
        resolver: input.resolver,
        path: input.field,
        at,
      })
    : [];
  // insertBlockTree writes parents before children, depth first: the same order as this walk.
  let next = 0;
  const idOf = new Map<ParsedBlock, string>();
  const number = (blocks: readonly ParsedBlock[]) => {
    for (const block of blocks) {
      if (block.kind === 'keep') continue;
      idOf.set(block, rows[next++].id);
      number(block.children);
    }
  };
  number(newSpan);

  const place = async (blocks: readonly ParsedBlock[], parentType: 'page_id' | 'block_id', parentId: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const block of blocks) {
      if (block.kind === 'keep') {
        const where = inSpan.get(block.id)!;
        const currentParent = where.parent?.id ?? pageId;
        if (currentParent !== parentId) await moveObject(db, { id: block.id, trashed: false, parentType, parentId, actorId: caller.botId, at }, input.field);
        ids.push(block.id);
      } else {
        const id = idOf.get(block)!;
        if (block.children.some((child) => child.kind === 'keep')) await setChildPositions(db, await place(block.children, 'block_id', id));
        else await place(block.children, 'block_id', id);
        ids.push(id);
      }
    }
    return ids;
  };
  const spanIds = await place(newSpan, 'page_id', pageId);
  for (const block of oldSpan) if (!keptSet.has(block.id)) await setTrashed(db, block.id, true, caller.botId, at);
  if (oldSpan.length || newSpan.length) {
    await setChildPositions(db, [...old.slice(0, head).map((b) => b.id), ...spanIds, ...old.slice(old.length - tail).map((b) => b.id)]);
  }
}

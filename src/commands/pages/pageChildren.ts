import type { Db } from '../../storage/db.js';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { BlockInput } from '../../schemas/blocks.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { insertBlockTree } from '../../domain/blocks/insertBlockTree.js';

/** Initial content of a new page (POST /v1/pages `children`, or `content`), written by the blocks engine. */
export async function insertPageChildren(
  ctx: AppContext,
  db: Db,
  caller: Caller,
  pageId: string,
  children: readonly BlockInput[] | undefined,
  field: 'children' | 'content',
  at: string,
): Promise<void> {
  if (!children || children.length === 0) return;
  await insertBlockTree(db, {
    workspaceId: caller.workspaceId,
    parentType: 'page_id',
    parentId: pageId,
    actorId: caller.botId,
    children,
    resolver: createMentionResolver(db, caller.workspaceId, ctx.config.publicUrl, caller.userId),
    path: [field],
    at,
  });
}

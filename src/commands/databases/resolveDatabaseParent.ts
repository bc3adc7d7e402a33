import type { Db } from '../../storage/db.js';
import type { Caller } from '../../auth/capabilities.js';
import type { ParentType } from '../../storage/schema.js';
import { assertEditable, loadVisibleObject } from '../../auth/access.js';
import { normalizeId } from '../../ids/ids.js';
import type { DatabaseParentInput } from '../../schemas/databases.js';
import { isWorkspaceParent } from '../../schemas/pages.js';

/** A database lives under a page the connection can see and edit, or at the workspace level. */
export async function resolveDatabaseParent(db: Db, caller: Caller, parent: DatabaseParentInput): Promise<{ parentType: ParentType; parentId: string | null }> {
  if (isWorkspaceParent(parent)) return { parentType: 'workspace', parentId: null };
  const page = await loadVisibleObject(db, caller, normalizeId(parent.page_id)!, ['page'], 'page', parent.page_id);
  assertEditable(page);
  return { parentType: 'page_id', parentId: page.id };
}

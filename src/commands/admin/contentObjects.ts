import type { AppContext } from '../../context.js';
import type { ListView } from '../../domain/views.js';
import type { ObjectRow } from '../../storage/schema.js';
import type { ContentObjectsListQuery } from '../../schemas/admin.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import { parseIdParam } from '../../ids/ids.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { listContentChildren } from '../../storage/repositories/contentTree.js';
import { findObject } from '../../storage/repositories/objects.js';
import { adminNotFound } from './adminNotFound.js';

const SCOPE = 'admin-content-objects';

/** One level of a workspace's page tree for the console: every page and database, shared or not. */
export async function listContentObjects(ctx: AppContext, workspaceId: string, query: ContentObjectsListQuery): Promise<ListView<ObjectRow>> {
  const parentId = query.parent_id === undefined ? null : parseIdParam(query.parent_id, 'parent_id');
  const pageSize = query.page_size ?? 100;
  // The cursor carries the parent it was made for, so it cannot page another branch.
  const scope = `${SCOPE}:${parentId ?? workspaceId}`;
  const key = query.start_cursor ? decodeCursor(scope, query.start_cursor, 'start_cursor', 'query') : null;
  const after = key ? { position: Number(key[0]), id: String(key[1]) } : null;
  const db = ctx.store.db;
  if (!(await findWorkspace(db, workspaceId))) throw adminNotFound('workspace', workspaceId);
  const rows = await listContentChildren(db, workspaceId, parentId, after, pageSize + 1);
  const items = rows.slice(0, pageSize);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > pageSize ? encodeCursor(scope, [last.position, last.id]) : null };
}

/** One page or database of any workspace, for the console's labels (a share names only an id). */
export async function getContentObject(ctx: AppContext, id: string): Promise<ObjectRow> {
  const row = await findObject(ctx.store.db, id);
  if (!row || (row.object !== 'page' && row.object !== 'database')) throw adminNotFound('page', id);
  return row;
}

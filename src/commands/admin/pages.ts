import type { AppContext } from '../../context.js';
import { invalidFieldBare } from '../../errors/validationFailure.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { findFirstPerson, findUser } from '../../storage/repositories/users.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { insertPage } from '../../domain/pages/insertPage.js';
import { textItem } from '../../domain/richText.js';
import type { PageView } from '../../domain/views.js';
import type { WorkspaceRow } from '../../storage/schema.js';
import { adminNotFound } from './adminNotFound.js';

/**
 * Who a page made by the operator is created by: the user named in `created_by` (a person or a
 * connection's bot of the workspace), else the workspace's first person. Only a workspace with no
 * person yet falls back to its internal actor (docs/decisions.md).
 */
async function pageAuthor(ctx: AppContext, workspace: WorkspaceRow, createdBy: string | undefined): Promise<string> {
  if (createdBy !== undefined) {
    const user = await findUser(ctx.store.db, workspace.id, createdBy);
    if (!user || user.id === workspace.system_user_id) throw invalidFieldBare(['created_by'], 'should be a user of this workspace', createdBy);
    return user.id;
  }
  return (await findFirstPerson(ctx.store.db, workspace.id))?.id ?? workspace.system_user_id;
}

/** A top-level page for operators to share. */
export async function createTopLevelPage(ctx: AppContext, workspaceId: string, input: { title: string; created_by?: string }): Promise<PageView> {
  const workspace = await findWorkspace(ctx.store.db, workspaceId);
  if (!workspace) throw adminNotFound('workspace', workspaceId);
  const actorId = await pageAuthor(ctx, workspace, input.created_by);
  const row = await ctx.store.transaction((trx) =>
    insertPage(trx, {
      workspaceId,
      parentType: 'workspace',
      parentId: null,
      actorId,
      title: input.title ? [textItem(input.title)] : [],
      at: ctx.clock.now().toISOString(),
    }),
  );
  const values = await loadValues(ctx.store.db, [row.id]);
  return { kind: 'page', row, values: values.get(row.id) ?? [], databaseId: null, enclosingPageId: null };
}

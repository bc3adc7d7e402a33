import type { AppContext } from '../../context.js';
import { notFound } from '../../errors/registry.js';
import { findWorkspace } from '../../storage/repositories/workspaces.js';
import { loadValues } from '../../storage/repositories/pageValues.js';
import { insertPage } from '../../domain/pages/insertPage.js';
import { textItem } from '../../domain/richText.js';
import { presentPage } from '../../presenters/page.js';

/** A top-level page, authored by the workspace's system user, for operators to share. */
export async function createTopLevelPage(ctx: AppContext, workspaceId: string, input: { title: string }) {
  const workspace = await findWorkspace(ctx.store.db, workspaceId);
  if (!workspace) throw notFound('workspace', workspaceId);
  const row = await ctx.store.transaction((trx) =>
    insertPage(trx, {
      workspaceId,
      parentType: 'workspace',
      parentId: null,
      actorId: workspace.system_user_id,
      title: input.title ? [textItem(input.title)] : [],
    }),
  );
  const values = await loadValues(ctx.store.db, [row.id]);
  const view = { kind: 'page', row, values: values.get(row.id) ?? [], databaseId: null, enclosingPageId: null } as const;
  return presentPage(view, { baseUrl: ctx.config.publicUrl });
}

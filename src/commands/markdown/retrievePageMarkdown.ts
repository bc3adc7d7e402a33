import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { PageMarkdownView } from '../../domain/markdown/view.js';
import { loadVisibleObject } from '../../auth/access.js';
import { markdownView, renderContent } from './renderContent.js';
import { signFileLinks } from './fileLinks.js';

/**
 * GET /v1/pages/{page_id}/markdown: a page's content, or a block's subtree (how a caller fetches
 * what came back `<unknown>`), as NFM (FACTS.md §10.1 1.5). A database or one not shared is not found.
 */
export async function retrievePageMarkdown(ctx: AppContext, caller: Caller, id: string, rawId: string, includeTranscript: boolean): Promise<PageMarkdownView> {
  const db = ctx.store.db;
  const root = await loadVisibleObject(db, caller, id, ['page', 'block'], 'page', rawId);
  const view = markdownView(root.id, await renderContent(db, caller, root, ctx.config.publicUrl, includeTranscript));
  return { ...view, markdown: signFileLinks(view.markdown, ctx.fileLinks, ctx.config.publicUrl, ctx.clock.now()) };
}

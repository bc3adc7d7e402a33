import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdatePageMarkdownInput } from '../../schemas/markdown.js';
import type { PageMarkdownView } from '../../domain/markdown/view.js';
import { assertEditable, assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { validationError } from '../../errors/registry.js';
import { applyEdit } from '../../domain/markdown/edits.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { touchObjects } from '../../storage/repositories/blocks.js';
import { recordEvent } from '../events/recordEvent.js';
import { contentEvent } from '../events/objectEvents.js';
import { findObject } from '../../storage/repositories/objects.js';
import { applyMarkdown } from './applyMarkdown.js';
import { splitOrRefuse } from './readMarkdown.js';
import { markdownView, renderContent } from './renderContent.js';
import { assertHeldReferences, signFileLinks, unsignFileLinks } from './fileLinks.js';

/**
 * PATCH /v1/pages/{page_id}/markdown (FACTS.md §10.1 1.6): the edit is made to the page's current
 * markdown, the result read back as blocks and written over the page's content; the answer is the
 * page's markdown after it. Only a page may be edited so (a database or a block is refused).
 */
export async function updatePageMarkdown(ctx: AppContext, caller: Caller, id: string, rawId: string, body: UpdatePageMarkdownInput): Promise<PageMarkdownView> {
  return ctx.store.transaction(async (trx) => {
    const page = await loadVisibleObject(trx, caller, id, ['page', 'block', 'database'], 'page', rawId);
    if (page.object !== 'page')
      throw validationError(`${rawId} is a ${page.object === 'block' ? 'block' : 'database'}, not a page: only a page's content can be edited as markdown.`);
    assertEditable(page);
    assertUnlocked(page);
    const at = ctx.clock.now().toISOString();
    // First write: on PostgreSQL it locks the page row, so two edits of one page run one after the other.
    await touchObjects(trx, [page.id], caller.botId, at);
    const current = await renderContent(trx, caller, page, ctx.config.publicUrl, false);
    const origin = ctx.config.publicUrl;
    const unsigned = JSON.parse(unsignFileLinks(JSON.stringify(body), JSON.stringify(current.markdown), origin)) as UpdatePageMarkdownInput;
    const edit = applyEdit(current.markdown, unsigned);
    assertHeldReferences(edit.markdown, current.markdown, edit.field);
    const nodes = splitOrRefuse(edit.markdown, edit.field);
    await applyMarkdown(trx, {
      caller,
      pageId: page.id,
      old: current,
      nodes,
      markdown: edit.markdown,
      allowDeleting: edit.allowDeleting,
      field: edit.field,
      resolver: createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId),
      at,
      publicUrl: origin,
    });
    await recordEvent(ctx, trx, caller, at, ...(await contentEvent(trx, page.id)));
    const after = (await findObject(trx, page.id))!;
    const view = markdownView(page.id, await renderContent(trx, caller, after, ctx.config.publicUrl, false));
    return { ...view, markdown: signFileLinks(view.markdown, ctx.fileLinks, origin, ctx.clock.now()) };
  });
}

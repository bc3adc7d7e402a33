import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CreatePageInput } from '../../schemas/pages.js';
import type { BlockInput } from '../../schemas/blocks.js';
import { invalidField } from '../../errors/validationFailure.js';

import { insertGrant } from '../../storage/repositories/grants.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { insertPage } from '../../domain/pages/insertPage.js';
import { normalizeCover, normalizeIcon } from '../../domain/pages/iconCover.js';
import { writePageValues } from '../../domain/properties/writePageValues.js';
import { refreshComputed } from '../../domain/properties/refreshComputed.js';
import { titleProperty, type Schema } from '../../domain/properties/schemaTypes.js';
import { updateObject, writeObjectContent } from '../../storage/repositories/objects.js';
import { findObject } from '../../storage/repositories/objects.js';
import { resolvePageParent } from './resolvePageParent.js';
import { valueContext } from './valueContext.js';
import { titleOnlyValues } from './titleOnly.js';
import type { PageView, Unreadable } from '../../domain/views.js';
import type { ObjectRow } from '../../storage/schema.js';
import { loadPageView } from './loadPageView.js';
import { insertPageChildren } from './pageChildren.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { pageFromMarkdown } from '../markdown/pageFromMarkdown.js';
import { resolveTemplate } from '../templates/resolveTemplate.js';
import { enqueueTemplate } from '../templates/applyTemplate.js';
import { givenProperties } from '../templates/givenProperties.js';
import { resolveCustomEmojis } from '../customEmojis/resolveCustomEmojis.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';

/**
 * POST /v1/pages. The page joins its parent's tree, so it is visible wherever the parent is; a
 * page created at workspace level is granted to the creating connection, which could not see it
 * otherwise.
 */
export async function createPage(ctx: AppContext, caller: Caller, body: CreatePageInput): Promise<PageView | Unreadable> {
  if (body.children && body.content) throw invalidField(['content'], 'should be not present when children is given', body.content);
  // A template's content replaces what children would give (FACTS.md §10.4).
  if (body.template && body.template.type !== 'none' && (body.children || body.content || body.markdown !== undefined)) {
    const field = body.children ? 'children' : body.content ? 'content' : 'markdown';
    throw invalidField([field], `should be not present when template is \`${body.template.type}\``, body[field]);
  }
  if (body.markdown !== undefined) body = await pageFromMarkdown(ctx.store.db, caller.workspaceId, ctx.config.publicUrl, body);
  const now = ctx.clock.now();
  const at = now.toISOString();
  let templated = false;
  const view = await ctx.store.transaction(async (trx): Promise<PageView | Unreadable> => {
    body = await attachFileUploads(trx, caller, now, body);
    body = await resolveCustomEmojis(ctx, trx, caller, body);
    // BlockRequestArray validated the blocks; its static type cannot follow the schema's references.
    const children = (body.children ?? body.content) as BlockInput[] | undefined;
    const parent = await resolvePageParent(trx, caller, body.parent);
    const template = await resolveTemplate(trx, caller, body.template, parent.dataSource?.id ?? null);
    const values = valueContext(ctx, trx, caller, now);
    const base = {
      workspaceId: caller.workspaceId,
      parentType: parent.parentType,
      parentId: parent.parentId,
      actorId: caller.botId,
      icon: normalizeIcon(body.icon),
      cover: normalizeCover(body.cover),
      at,
    };
    let pageId: string;
    // The row as inserted, where nothing wrote to it since: a row of a data source is read again.
    let inserted: ObjectRow | undefined;
    if (parent.dataSource) {
      const source = parent.dataSource;
      const content = parseContent<DataSourceContent>(source.content);
      const schema = content.properties as Schema;
      const row = await insertPage(trx, { ...base, title: [], titlePropertyId: titleProperty(schema)?.id, dataSourceId: source.id });
      pageId = row.id;
      const written = await writePageValues(
        values,
        { pageId, dataSourceId: source.id, schema, current: new Map(), creating: true, at },
        body.properties ?? {},
        ['properties'],
      );
      if (written.title) await updateObject(trx, pageId, { title: written.title });
      if (values.schemaChanged) await writeObjectContent(trx, source.id, { ...content, properties: schema });
      await insertPageChildren(ctx, trx, caller, pageId, children, body.content ? 'content' : 'children', at);
      await refreshComputed(trx, caller.workspaceId, written.changed, now);
    } else {
      const title = await titleOnlyValues(values, body.properties ?? {});
      inserted = await insertPage(trx, { ...base, title });
      pageId = inserted.id;
      await insertPageChildren(ctx, trx, caller, pageId, children, body.content ? 'content' : 'children', at);
    }
    if (parent.parentType === 'workspace') await insertGrant(trx, caller.connectionId, pageId, at);
    const created = inserted ?? (await findObject(trx, pageId))!;
    await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, created, 'created')));
    if (template) {
      await enqueueTemplate(ctx, trx, caller, pageId, template, givenProperties(parent.dataSource, body.properties));
      templated = true;
    }
    // Creating does not imply reading (FACTS.md §2 capabilities).
    if (!caller.capabilities.has('read_content')) return { kind: 'unreadable', id: pageId };
    return loadPageView(trx, created, now);
  });
  if (templated) ctx.jobs.wake();
  return view;
}

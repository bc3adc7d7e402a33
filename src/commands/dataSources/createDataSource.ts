import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CreateDataSourceInput } from '../../schemas/dataSources.js';
import { assertEditable, assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { newId, normalizeId } from '../../ids/ids.js';
import { findObject, insertObject, nextPosition } from '../../storage/repositories/objects.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { normalizeRichText, plainText } from '../../domain/richText.js';
import type { DataSourceContent } from '../../domain/contentShapes.js';
import { normalizeIcon } from '../../domain/pages/iconCover.js';
import { SchemaEditor } from '../../domain/properties/schemaEditor.js';
import { applySchemaEffects } from '../../domain/properties/applySchemaEffects.js';
import { writeObjectContent } from '../../storage/repositories/objects.js';
import type { DataSourceView, Unreadable } from '../../domain/views.js';
import { loadDataSourceView } from './loadDataSourceView.js';
import { newObjectState } from '../../domain/newObjectState.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { resolveCustomEmojis } from '../customEmojis/resolveCustomEmojis.js';

/** POST /v1/data_sources: another data source in an existing database (2025-09-03 on). */
export async function createDataSource(ctx: AppContext, caller: Caller, body: CreateDataSourceInput): Promise<DataSourceView | Unreadable> {
  const at = ctx.clock.now().toISOString();
  const actor = caller.botId;
  const id = newId();
  return ctx.store.transaction(async (trx) => {
    body = await attachFileUploads(trx, caller, ctx.clock.now(), body);
    body = await resolveCustomEmojis(ctx, trx, caller, body);
    const database = await loadVisibleObject(trx, caller, normalizeId(body.parent.database_id)!, ['database'], 'database', body.parent.database_id);
    assertEditable(database);
    assertUnlocked(database);
    const resolver = createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId);
    const title = await normalizeRichText(body.title ?? [], resolver);
    const description = await normalizeRichText(body.description ?? [], resolver);
    const editor = new SchemaEditor(trx, caller, { id, databaseId: database.id, title: plainText(title), schema: {} });
    await editor.create(body.properties, ['properties']);
    const content: DataSourceContent = { title, description, icon: normalizeIcon(body.icon), properties: editor.self.schema };
    await insertObject(trx, {
      id,
      workspace_id: caller.workspaceId,
      object: 'data_source',
      type: null,
      parent_type: 'database_id',
      parent_id: database.id,
      position: await nextPosition(trx, database.id),
      title: plainText(title),
      content: JSON.stringify(content),
      ...newObjectState(actor, at),
    });
    await applySchemaEffects(trx, caller.workspaceId, editor, at, actor);
    await writeObjectContent(trx, id, { ...content, properties: editor.self.schema });
    await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, (await findObject(trx, id))!, 'created')));
    // Creating does not imply reading (FACTS.md §2 capabilities).
    if (!caller.capabilities.has('read_content')) return { kind: 'unreadable', id };
    return loadDataSourceView(trx, (await findObject(trx, id))!);
  });
}

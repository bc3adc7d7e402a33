import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { CreateDatabaseInput } from '../../schemas/databases.js';
import { newId } from '../../ids/ids.js';
import { insertObject, nextPosition, findObject } from '../../storage/repositories/objects.js';
import { insertGrant } from '../../storage/repositories/grants.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { normalizeRichText, plainText } from '../../domain/richText.js';
import type { DatabaseContent, DataSourceContent } from '../../domain/contentShapes.js';
import { normalizeCover, normalizeIcon } from '../../domain/pages/iconCover.js';
import { SchemaEditor } from '../../domain/properties/schemaEditor.js';
import { applySchemaEffects } from '../../domain/properties/applySchemaEffects.js';
import { writeObjectContent } from '../../storage/repositories/objects.js';
import { resolveDatabaseParent } from './resolveDatabaseParent.js';
import type { DatabaseView, Unreadable } from '../../domain/views.js';
import { loadDatabaseView } from './loadDatabaseView.js';
import { newObjectState } from '../../domain/newObjectState.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';
import { createDefaultView } from '../databaseViews/createDefaultView.js';
import { resolveCustomEmojis } from '../customEmojis/resolveCustomEmojis.js';

/**
 * POST /v1/databases: a database and its first data source, whose schema comes from
 * `initial_data_source.properties` (a title property "Name" when none is given).
 */
export async function createDatabase(ctx: AppContext, caller: Caller, body: CreateDatabaseInput): Promise<DatabaseView | Unreadable> {
  const at = ctx.clock.now().toISOString();
  const actor = caller.botId;
  const databaseId = newId();
  return ctx.store.transaction(async (trx) => {
    body = await attachFileUploads(trx, caller, ctx.clock.now(), body);
    body = await resolveCustomEmojis(ctx, trx, caller, body);
    const parent = await resolveDatabaseParent(trx, caller, body.parent);
    const resolver = createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId);
    const title = await normalizeRichText(body.title ?? [], resolver);
    const description = await normalizeRichText(body.description ?? [], resolver);
    const icon = normalizeIcon(body.icon);
    const content: DatabaseContent = { title, description, icon, cover: normalizeCover(body.cover), is_inline: body.is_inline ?? false };
    const stamp = newObjectState(actor, at);
    await insertObject(trx, {
      id: databaseId,
      workspace_id: caller.workspaceId,
      object: 'database',
      type: null,
      parent_type: parent.parentType,
      parent_id: parent.parentId,
      position: await nextPosition(trx, parent.parentId),
      title: plainText(title),
      content: JSON.stringify(content),
      ...stamp,
    });
    const sourceId = newId();
    const editor = new SchemaEditor(trx, caller, { id: sourceId, databaseId, title: plainText(title), schema: {} });
    await editor.create(body.initial_data_source?.properties ?? {}, ['initial_data_source', 'properties']);
    const sourceContent: DataSourceContent = { title, description: [], icon, properties: editor.self.schema };
    await insertObject(trx, {
      id: sourceId,
      workspace_id: caller.workspaceId,
      object: 'data_source',
      type: null,
      parent_type: 'database_id',
      parent_id: databaseId,
      position: 0,
      title: plainText(title),
      content: JSON.stringify(sourceContent),
      ...stamp,
    });
    await applySchemaEffects(trx, caller.workspaceId, editor, at, actor);
    await writeObjectContent(trx, sourceId, { ...sourceContent, properties: editor.self.schema });
    await createDefaultView(trx, caller.workspaceId, databaseId, sourceId, at, actor);
    if (parent.parentType === 'workspace') await insertGrant(trx, caller.connectionId, databaseId, at);
    await recordEvent(
      ctx,
      trx,
      caller,
      at,
      ...(await lifecycleEvent(trx, (await findObject(trx, databaseId))!, 'created')),
      ...(await lifecycleEvent(trx, (await findObject(trx, sourceId))!, 'created')),
    );
    // Creating does not imply reading (FACTS.md §2 capabilities).
    if (!caller.capabilities.has('read_content')) return { kind: 'unreadable', id: databaseId };
    return loadDatabaseView(trx, (await findObject(trx, databaseId))!);
  });
}

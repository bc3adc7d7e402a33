import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdateDataSourceInput } from '../../schemas/dataSources.js';
import { assertEditable, assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { normalizeId } from '../../ids/ids.js';
import { findObject } from '../../storage/repositories/objects.js';
import { setTrashed } from '../../domain/trash.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { normalizeRichText, plainText } from '../../domain/richText.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { normalizeIcon } from '../../domain/pages/iconCover.js';
import { moveObject } from '../../domain/moveObject.js';
import { updateObject, type ObjectChanges } from '../../storage/repositories/objects.js';
import { updateSchema } from './updateSchema.js';
import { repointRelations } from '../../domain/properties/repointRelations.js';
import type { DataSourceView } from '../../domain/views.js';
import { loadDataSourceView } from './loadDataSourceView.js';
import { attachFileUploads } from '../fileUploads/attachFileUploads.js';

/**
 * PATCH /v1/data_sources/{id}: title, description, icon, schema (`null` deletes a property,
 * `{name}` renames it), trash and moving to another database. A locked database refuses schema
 * edits of its data sources.
 */
export async function updateDataSource(
  ctx: AppContext,
  caller: Caller,
  dataSourceId: string,
  rawId: string,
  body: UpdateDataSourceInput,
): Promise<DataSourceView> {
  const at = ctx.clock.now().toISOString();
  const actor = caller.botId;
  return ctx.store.transaction(async (trx) => {
    body = await attachFileUploads(trx, caller, ctx.clock.now(), body);
    let row = await loadVisibleObject(trx, caller, dataSourceId, ['data_source'], 'data_source', rawId);
    if (body.in_trash === false && row.trashed === 1) {
      await setTrashed(trx, row.id, false, actor, at);
      row = (await findObject(trx, row.id))!;
    }
    const { in_trash: inTrash, ...rest } = body;
    const edits = Object.values(rest).some((v) => v !== undefined);
    if (row.in_trash === 1 && (edits || inTrash === true)) assertEditable(row);
    const database = (await findObject(trx, row.parent_id!))!;
    if (edits) assertUnlocked(database);

    if (body.properties !== undefined) {
      await updateSchema(ctx, trx, caller, row, body.properties, ['properties'], at);
      row = (await findObject(trx, row.id))!;
    }
    const content = parseContent<DataSourceContent>(row.content);
    const changes: ObjectChanges = {};
    const resolver = createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId);
    if (body.title !== undefined) {
      content.title = await normalizeRichText(body.title, resolver);
      changes.title = plainText(content.title);
    }
    if (body.description !== undefined) content.description = await normalizeRichText(body.description, resolver);
    if (body.icon !== undefined) content.icon = normalizeIcon(body.icon);
    let movedTo: string | undefined;
    if (body.parent !== undefined) {
      const target = await loadVisibleObject(trx, caller, normalizeId(body.parent.database_id)!, ['database'], 'database', body.parent.database_id);
      assertEditable(target);
      if (target.id !== row.parent_id) {
        movedTo = target.id;
        await moveObject(trx, { id: row.id, trashed: row.trashed === 1, parentType: 'database_id', parentId: target.id, actorId: actor, at }, [
          'parent',
          'database_id',
        ]);
      }
    }
    if (edits) await updateObject(trx, row.id, { ...changes, content: JSON.stringify(content), last_edited_time: at, last_edited_by: actor });
    // After the content write above, which would otherwise put back a relation to itself as it was.
    if (movedTo) await repointRelations(trx, caller.workspaceId, row.id, movedTo);
    if (inTrash === true) await setTrashed(trx, row.id, true, actor, at);
    return loadDataSourceView(trx, (await findObject(trx, row.id))!);
  });
}

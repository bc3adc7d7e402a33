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
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';
import { repointRelations } from '../../domain/properties/repointRelations.js';
import type { DataSourceView } from '../../domain/views.js';
import { loadDataSourceView } from './loadDataSourceView.js';
import { openForEdit } from '../openForEdit.js';

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
  given: UpdateDataSourceInput,
): Promise<DataSourceView> {
  const actor = caller.botId;
  return ctx.store.transaction(async (trx) => {
    const edits = ({ in_trash: _trash, ...rest }: UpdateDataSourceInput) => Object.values(rest).some((v) => v !== undefined);
    const opened = await openForEdit(ctx, trx, caller, given, {
      load: (db) => loadVisibleObject(db, caller, dataSourceId, ['data_source'], 'data_source', rawId),
      refusedInTrash: (b) => edits(b) || b.in_trash === true,
      // A locked database refuses edits of its data sources.
      checkLock: async (db, source, b) => {
        if (edits(b)) assertUnlocked((await findObject(db, source.parent_id!))!);
      },
    });
    const { body, at } = opened;
    let row = opened.row;
    const inTrash = body.in_trash;

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
    if (edits(body)) await updateObject(trx, row.id, { ...changes, content: JSON.stringify(content), last_edited_time: at, last_edited_by: actor });
    // After the content write above, which would otherwise put back a relation to itself as it was.
    if (movedTo) await repointRelations(trx, caller.workspaceId, row.id, movedTo);
    if (inTrash === true) await setTrashed(trx, row.id, true, actor, at);
    const updated = (await findObject(trx, row.id))!;
    if (movedTo) await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, updated, 'moved')));
    if (inTrash === true) await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, updated, 'deleted')));
    return loadDataSourceView(trx, updated);
  });
}

import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdateDatabaseInput } from '../../schemas/databases.js';
import { assertUnlocked, loadVisibleObject } from '../../auth/access.js';

import { findObject } from '../../storage/repositories/objects.js';
import { setTrashed } from '../../domain/trash.js';
import { createMentionResolver } from '../../domain/mentionResolver.js';
import { normalizeRichText, plainText } from '../../domain/richText.js';
import { parseContent, type DatabaseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { normalizeCover, normalizeIcon } from '../../domain/pages/iconCover.js';
import { moveObject } from '../../domain/moveObject.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent, lockEvent } from '../events/objectEvents.js';
import { invalidField } from '../../errors/validationFailure.js';
import { listDataSourcesOf, updateObject, type ObjectChanges } from '../../storage/repositories/objects.js';
import { updateSchema } from '../dataSources/updateSchema.js';
import { resolveDatabaseParent } from './resolveDatabaseParent.js';
import type { DatabaseView } from '../../domain/views.js';
import { loadDatabaseView } from './loadDatabaseView.js';
import { openForEdit } from '../openForEdit.js';

/**
 * PATCH /v1/databases/{id}: title, description, is_inline, icon, cover, lock, trash and parent.
 * Trash and lock follow the page rules. `properties` (how versions before 2025-09-03 change a
 * schema) applies to the database's only data source.
 */
export async function updateDatabase(ctx: AppContext, caller: Caller, databaseId: string, rawId: string, given: UpdateDatabaseInput): Promise<DatabaseView> {
  const actor = caller.botId;
  return ctx.store.transaction(async (trx) => {
    const edits = ({ in_trash: _trash, is_locked: _lock, ...rest }: UpdateDatabaseInput) => Object.values(rest).some((v) => v !== undefined);
    const { body, row, at } = await openForEdit(ctx, trx, caller, given, {
      load: (db) => loadVisibleObject(db, caller, databaseId, ['database'], 'database', rawId),
      refusedInTrash: (b) => edits(b) || b.in_trash === true || b.is_locked !== undefined,
      checkLock: (_db, opened, b) => {
        if (edits(b) && b.is_locked !== false) assertUnlocked(opened);
      },
    });
    const { in_trash: inTrash, is_locked: isLocked } = body;

    const content = parseContent<DatabaseContent>(row.content);
    const changes: ObjectChanges = {};
    const sources = await listDataSourcesOf(trx, row.id);
    const resolver = createMentionResolver(trx, caller.workspaceId, ctx.config.publicUrl, caller.userId);
    if (body.title !== undefined) {
      content.title = await normalizeRichText(body.title, resolver);
      changes.title = plainText(content.title);
      // With one data source the two titles are one to the reader (and to versions before 2025-09-03).
      if (sources.length === 1) {
        const sourceContent = parseContent<DataSourceContent>(sources[0].content);
        await updateObject(trx, sources[0].id, { title: changes.title, content: JSON.stringify({ ...sourceContent, title: content.title }) });
      }
    }
    if (body.description !== undefined) content.description = await normalizeRichText(body.description, resolver);
    if (body.icon !== undefined) content.icon = normalizeIcon(body.icon);
    if (body.cover !== undefined) content.cover = normalizeCover(body.cover);
    if (body.is_inline !== undefined) content.is_inline = body.is_inline;
    if (isLocked !== undefined) changes.is_locked = isLocked ? 1 : 0;
    if (body.properties !== undefined) {
      const live = sources.filter((s) => s.trashed === 0);
      if (live.length !== 1)
        throw invalidField(
          ['properties'],
          `should be not present: the database has ${live.length} data sources; update them with PATCH /v1/data_sources/{id}`,
          body.properties,
        );
      await updateSchema(ctx, trx, caller, live[0], body.properties, ['properties'], at);
    }
    let moved = false;
    if (body.parent !== undefined) {
      const parent = await resolveDatabaseParent(trx, caller, body.parent);
      if (parent.parentId !== row.parent_id || parent.parentType !== row.parent_type) {
        moved = true;
        await moveObject(trx, { id: row.id, trashed: row.trashed === 1, parentType: parent.parentType, parentId: parent.parentId, actorId: actor, at }, [
          'parent',
        ]);
      }
    }
    if (edits(body) || isLocked !== undefined)
      await updateObject(trx, row.id, { ...changes, content: JSON.stringify(content), last_edited_time: at, last_edited_by: actor });
    if (inTrash === true) await setTrashed(trx, row.id, true, actor, at);
    const updated = (await findObject(trx, row.id))!;
    if (moved) await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, updated, 'moved')));
    if (isLocked !== undefined && (isLocked ? 1 : 0) !== row.is_locked) await recordEvent(ctx, trx, caller, at, ...(await lockEvent(trx, updated, isLocked)));
    if (inTrash === true) await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, updated, 'deleted')));
    return loadDatabaseView(trx, updated);
  });
}

import type { AppContext } from '../../context.js';
import { recordEvent } from '../events/recordEvent.js';
import { lifecycleEvent } from '../events/objectEvents.js';
import type { Caller } from '../../auth/capabilities.js';
import type { Db } from '../../storage/db.js';
import type { ObjectRow, ParentType } from '../../storage/schema.js';
import type { MovePageInput } from '../../schemas/pages.js';
import type { PageView } from '../../domain/views.js';
import { notFound, validationError } from '../../errors/registry.js';
import { invalidField } from '../../errors/validationFailure.js';
import { normalizeId } from '../../ids/ids.js';
import { findObjectForConnection } from '../../storage/repositories/grants.js';
import { findObject, lockRow, touchObject, writeObjectContent } from '../../storage/repositories/objects.js';
import { isWithin } from '../../storage/repositories/objectAncestors.js';
import { moveObject } from '../../domain/moveObject.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import type { Schema } from '../../domain/properties/schemaTypes.js';
import { refreshComputed } from '../../domain/properties/refreshComputed.js';
import { carryValues } from '../../domain/pages/carryValues.js';
import { valueContext } from './valueContext.js';
import { loadPageView } from './loadPageView.js';

/** Only shared objects of the caller's workspace exist for it (unshared ≡ missing). */
async function visible(db: Db, caller: Caller, id: string | null): Promise<ObjectRow | undefined> {
  if (!id) return undefined;
  const found = await findObjectForConnection(db, id, caller.connectionId);
  return found && found.shared && found.row.workspace_id === caller.workspaceId ? found.row : undefined;
}

/** The new parent: a page (not another block, not a database) or a data source, visible and not in the trash. */
async function loadNewParent(db: Db, caller: Caller, parent: MovePageInput['parent']): Promise<{ row: ObjectRow; parentType: ParentType }> {
  if ('page_id' in parent) {
    const row = await visible(db, caller, normalizeId(parent.page_id));
    if (!row || row.object === 'data_source') throw notFound('page', parent.page_id);
    if (row.object !== 'page') {
      const why = row.object === 'database' ? 'a page; a database takes pages through parent.data_source_id' : `a page, not a ${row.type ?? row.object} block`;
      throw invalidField(['parent', 'page_id'], `should be ${why}`, parent.page_id);
    }
    return { row, parentType: 'page_id' };
  }
  const row = await visible(db, caller, normalizeId(parent.data_source_id));
  if (!row || row.object !== 'data_source') throw notFound('data_source', parent.data_source_id);
  return { row, parentType: 'data_source_id' };
}

/**
 * POST /v1/pages/{id}/move (FACTS.md §10.3). The page keeps its id, content and sharing; the
 * closure table (and so search scope, sharing and trash) follows `moveObject`. Between data
 * sources its values are carried by property name and type (`carryValues`, docs/decisions.md).
 */
export async function movePage(ctx: AppContext, caller: Caller, pageId: string, rawId: string, body: MovePageInput): Promise<PageView> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  return ctx.store.transaction(async (trx) => {
    const page = await visible(trx, caller, pageId);
    if (!page || (page.object !== 'page' && page.object !== 'database')) throw notFound('page', rawId);
    if (page.object === 'database') throw invalidField(['page_id'], 'should be a page: moving a database is not supported', rawId, 'path');
    await lockRow(trx, page.id);
    if (page.in_trash === 1) throw validationError(`Object ${page.id} is in trash and cannot be moved`);
    const requested = 'page_id' in body.parent ? body.parent.page_id : body.parent.data_source_id;
    if (normalizeId(requested) === page.id) throw validationError(`Parent ID must be different from the child ID: ${page.id}`);

    const { row: parent, parentType } = await loadNewParent(trx, caller, body.parent);
    if (parent.id === page.parent_id) throw validationError('New parent must be different from the current parent');
    if (await isWithin(trx, page.id, parent.id)) throw validationError(`New parent ${parent.id} cannot be under the hierarchy of child ${page.id}`);
    if (parent.in_trash === 1) throw validationError(`Can't move a page into ${parent.object.replace('_', ' ')} ${parent.id}: it is in the trash.`);

    const values = valueContext(ctx, trx, caller, now);
    const from = page.parent_type === 'data_source_id' && page.parent_id ? await findObject(trx, page.parent_id) : undefined;
    let target: { row: ObjectRow; content: DataSourceContent } | undefined;
    if (parentType === 'data_source_id') {
      await lockRow(trx, parent.id);
      const row = (await findObject(trx, parent.id))!;
      target = { row, content: parseContent<DataSourceContent>(row.content) };
    }
    const changed = await carryValues(values, page, from, target && { id: target.row.id, schema: target.content.properties as Schema }, at);
    await moveObject(trx, { id: page.id, trashed: false, parentType, parentId: parent.id, actorId: caller.botId, at }, ['parent']);
    if (target && values.schemaChanged) await writeObjectContent(trx, target.row.id, target.content);
    await touchObject(trx, page.id, at, caller.botId);
    await refreshComputed(trx, caller.workspaceId, changed, now);
    const moved = (await findObject(trx, page.id))!;
    await recordEvent(ctx, trx, caller, at, ...(await lifecycleEvent(trx, moved, 'moved')));
    return loadPageView(trx, moved, now);
  });
}

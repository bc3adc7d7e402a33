import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import type { UpdatePageInput } from '../../schemas/pages.js';
import { assertUnlocked, loadVisibleObject } from '../../auth/access.js';
import { openForEdit } from '../openForEdit.js';

import { findObject } from '../../storage/repositories/objects.js';
import { setTrashed } from '../../domain/trash.js';
import { parseContent, type DataSourceContent, type PageContent } from '../../domain/contentShapes.js';
import { normalizeCover, normalizeIcon } from '../../domain/pages/iconCover.js';
import { writePageValues } from '../../domain/properties/writePageValues.js';
import { refreshComputed, type ChangedPages } from '../../domain/properties/refreshComputed.js';
import type { StoredValue } from '../../domain/properties/storedValue.js';
import type { Schema } from '../../domain/properties/schemaTypes.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { lockRow, updateObject, writeObjectContent, type ObjectChanges } from '../../storage/repositories/objects.js';
import { storeValue } from '../../domain/properties/storeValue.js';
import { titleOnlyValues } from './titleOnly.js';
import { valueContext } from './valueContext.js';
import type { PageView } from '../../domain/views.js';
import { loadPageView } from './loadPageView.js';
import { plainText } from '../../domain/richText.js';
import { listChildIds } from '../../storage/repositories/subtree.js';
import { resolveTemplate } from '../templates/resolveTemplate.js';
import { enqueueTemplate } from '../templates/applyTemplate.js';
import { givenProperties } from '../templates/givenProperties.js';
import { recordEvent, type RecordedEvent } from '../events/recordEvent.js';
import { contentEvent, lifecycleEvent, lockEvent, propertiesEvent } from '../events/objectEvents.js';

/**
 * PATCH /v1/pages/{id}. Trash follows the spec's state table: `in_trash: false` restores (and may
 * come with other edits), `in_trash: true` trashes, after any other edits of the same request.
 * Anything else on a trashed page, re-trashing included, is refused (FACTS.md §7), and so is
 * editing a locked page unless the same request unlocks it.
 */
export async function updatePage(ctx: AppContext, caller: Caller, pageId: string, rawId: string, given: UpdatePageInput): Promise<PageView> {
  const actor = caller.botId;
  let templated = false;
  const view = await ctx.store.transaction(async (trx) => {
    const edits = (b: UpdatePageInput) =>
      b.properties !== undefined ||
      b.icon !== undefined ||
      b.cover !== undefined ||
      b.is_archived !== undefined ||
      b.template !== undefined ||
      b.erase_content !== undefined;
    const { body, row, now, at } = await openForEdit(ctx, trx, caller, given, {
      load: (db) => loadVisibleObject(db, caller, pageId, ['page'], 'page', rawId),
      refusedInTrash: (b) => edits(b) || b.in_trash === true || b.is_locked !== undefined,
      checkLock: (_db, opened, b) => {
        if (edits(b) && b.is_locked !== false) assertUnlocked(opened);
      },
    });

    const changes: ObjectChanges = {};
    const content = parseContent<PageContent>(row.content);
    if (body.icon !== undefined) content.icon = normalizeIcon(body.icon);
    if (body.cover !== undefined) content.cover = normalizeCover(body.cover);
    if (body.icon !== undefined || body.cover !== undefined) changes.content = JSON.stringify(content);
    if (body.is_locked !== undefined) changes.is_locked = body.is_locked ? 1 : 0;
    if (body.is_archived !== undefined) changes.is_archived = body.is_archived ? 1 : 0;

    let seeds: ChangedPages = new Map();
    let propertyIds: string[] = [];
    if (body.properties && Object.keys(body.properties).length > 0) {
      const values = valueContext(ctx, trx, caller, now);
      if (row.parent_type === 'data_source_id' && row.parent_id) {
        await lockRow(trx, row.parent_id);
        const source = (await findObject(trx, row.parent_id))!;
        const sourceContent = parseContent<DataSourceContent>(source.content);
        const schema = sourceContent.properties as Schema;
        const current = new Map(((await loadValues(trx, [row.id])).get(row.id) ?? []).map((v) => [v.property_id, JSON.parse(v.value) as StoredValue]));
        const written = await writePageValues(values, { pageId: row.id, dataSourceId: source.id, schema, current, creating: false, at }, body.properties, [
          'properties',
        ]);
        if (written.title !== undefined) changes.title = written.title;
        if (values.schemaChanged) await writeObjectContent(trx, source.id, { ...sourceContent, properties: schema });
        seeds = written.changed;
        // Keys name a property by name or id; the event lists ids (FACTS.md §10.10.4).
        propertyIds = Object.keys(body.properties).map((key) => (schema[key] ?? Object.values(schema).find((p) => p.name === key))?.id ?? key);
      } else {
        const title = await titleOnlyValues(values, body.properties);
        await storeValue(trx, row.id, null, 'title', { type: 'title', title });
        changes.title = plainText(title);
        propertyIds = ['title'];
      }
    }
    // erase_content trashes the page's children now; a template's content comes after, from the job (FACTS.md §10.4).
    if (body.erase_content === true) for (const childId of await listChildIds(trx, row.id)) await setTrashed(trx, childId, true, actor, at);
    const source = row.parent_type === 'data_source_id' && row.parent_id ? await findObject(trx, row.parent_id) : undefined;
    const template = await resolveTemplate(trx, caller, body.template, source?.id ?? null);
    if (template) {
      await enqueueTemplate(ctx, trx, caller, row.id, template, givenProperties(source, body.properties));
      templated = true;
    }
    const edited = Object.keys(changes).length > 0 || seeds.size > 0 || body.erase_content === true;
    if (edited) await updateObject(trx, row.id, { ...changes, last_edited_time: at, last_edited_by: actor });
    if (body.in_trash === true) await setTrashed(trx, row.id, true, actor, at);
    // The edit changed last_edited_time/by, which computed values may read.
    if (edited && row.parent_type === 'data_source_id') await refreshComputed(trx, caller.workspaceId, seeds.size ? seeds : [row.id], now);
    const events: RecordedEvent[] = await propertiesEvent(trx, row, propertyIds);
    if (body.is_locked !== undefined && (body.is_locked ? 1 : 0) !== row.is_locked) events.push(...(await lockEvent(trx, row, body.is_locked)));
    if (body.erase_content === true) events.push(...(await contentEvent(trx, row.id)));
    if (body.in_trash === true) events.push(...(await lifecycleEvent(trx, row, 'deleted')));
    await recordEvent(ctx, trx, caller, at, ...events);
    return loadPageView(trx, (await findObject(trx, row.id))!, now);
  });
  if (templated) ctx.jobs.wake();
  return view;
}

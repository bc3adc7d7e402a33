import type { ObjectRow } from '../../storage/schema.js';
import { deletePageValues, loadValues } from '../../storage/repositories/propertyValues.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { configOf, type RelationConfig, type Schema } from '../properties/schemaTypes.js';
import type { StoredValue } from '../properties/storedValue.js';
import type { ValueContext } from '../properties/valueContext.js';
import type { ChangedPages } from '../properties/refreshComputed.js';
import { storeValue } from '../properties/storeValue.js';
import { writePageValues } from '../properties/writePageValues.js';
import { mapValuesByName } from './valueMapping.js';

/**
 * Rewrites a moving page's values for its new place (docs/decisions.md, "Move, templates, custom
 * emojis"): the title always goes along; into a data source, values are kept by name and type
 * (mapValuesByName, relations excepted: they point at the old source's neighbours) and the
 * target's remaining properties start empty (unique ids numbered anew). Dual relations of the old
 * source are emptied first, so the pages on their other side let go of this one. Returns the pages
 * whose values changed, for refreshComputed.
 */
export async function carryValues(
  ctx: ValueContext,
  page: ObjectRow,
  from: ObjectRow | undefined,
  target: { id: string; schema: Schema } | undefined,
  at: string,
): Promise<ChangedPages> {
  const db = ctx.db;
  const current = new Map(((await loadValues(db, [page.id])).get(page.id) ?? []).map((v) => [v.property_id, JSON.parse(v.value) as StoredValue]));
  const changed: ChangedPages = new Map([[page.id, null]]);
  const oldSchema = from ? (parseContent<DataSourceContent>(from.content).properties as Schema) : null;
  const relations = Object.values(oldSchema ?? {}).filter(
    (p) => p.type === 'relation' && configOf<RelationConfig>(p).type === 'dual_property' && ((current.get(p.id)?.relation as unknown[]) ?? []).length > 0,
  );
  if (from && oldSchema && relations.length > 0) {
    const unlinked = await writePageValues(
      ctx,
      { pageId: page.id, dataSourceId: from.id, schema: oldSchema, current, creating: false, at },
      Object.fromEntries(relations.map((p) => [p.id, { relation: [] }])),
      ['properties'],
    );
    for (const [id, props] of unlinked.changed) if (id !== page.id) changed.set(id, props);
  }
  const titleId = oldSchema ? Object.values(oldSchema).find((p) => p.type === 'title')?.id : 'title';
  const title = (titleId && current.get(titleId)) || { type: 'title', title: [] };
  await deletePageValues(db, page.id);
  if (!target) {
    await storeValue(db, page.id, null, 'title', title);
    return changed;
  }
  const { direct, request } = mapValuesByName(oldSchema, current, target.schema);
  for (const key of Object.keys(request)) if (target.schema[key]?.type === 'relation') delete request[key];
  for (const [propertyId, value] of direct) await storeValue(db, page.id, target.id, propertyId, value);
  await writePageValues(ctx, { pageId: page.id, dataSourceId: target.id, schema: target.schema, current: direct, creating: true, at }, request, ['properties']);
  return changed;
}

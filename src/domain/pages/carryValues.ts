import type { ObjectRow } from '../../storage/schema.js';
import { deletePageValues, loadValues } from '../../storage/repositories/propertyValues.js';
import { parseContent, type DataSourceContent } from '../contentShapes.js';
import { configOf, type Property, type RelationConfig, type Schema, type StatusConfig } from '../properties/schemaTypes.js';
import type { StoredValue } from '../properties/storedValue.js';
import type { ValueContext } from '../properties/valueContext.js';
import type { ChangedPages } from '../properties/refreshComputed.js';
import { storeValue } from '../properties/storeValue.js';
import { writePageValues } from '../properties/writePageValues.js';

/** Values that mean the same in any data source: copied as they are. */
const COPIED = new Set(['rich_text', 'number', 'checkbox', 'date', 'url', 'email', 'phone_number', 'people', 'files']);

const optionName = (value: unknown) => (value as { name?: string } | null)?.name;

/**
 * What a kept select, multi-select or status value asks of the target: the option by name (a
 * select may gain it, as on any write; a status only keeps a name the target already has).
 */
function byName(property: Property, value: StoredValue): unknown {
  const member = value[property.type];
  if (member === null || member === undefined) return undefined;
  if (property.type === 'multi_select') return { multi_select: (member as unknown[]).map((o) => ({ name: optionName(o) })) };
  const name = optionName(member);
  if (property.type === 'status' && !(configOf<StatusConfig>(property).options ?? []).some((o) => o.name === name)) return undefined;
  return { [property.type]: { name } };
}

/**
 * Rewrites a moving page's values for its new place (docs/decisions.md, "Move"): the title always
 * goes along; into a data source, a value whose property name and type exist there is kept, any
 * other is dropped and the target's remaining properties start empty (unique ids numbered anew).
 * Dual relations of the old source are emptied first, so the pages on their other side let go of
 * this one. Returns the pages whose values changed, for refreshComputed.
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
  const oldSchema = from ? (parseContent<DataSourceContent>(from.content).properties as Schema) : {};
  const relations = Object.values(oldSchema).filter(
    (p) => p.type === 'relation' && configOf<RelationConfig>(p).type === 'dual_property' && ((current.get(p.id)?.relation as unknown[]) ?? []).length > 0,
  );
  if (from && relations.length > 0) {
    const unlinked = await writePageValues(
      ctx,
      { pageId: page.id, dataSourceId: from.id, schema: oldSchema, current, creating: false, at },
      Object.fromEntries(relations.map((p) => [p.id, { relation: [] }])),
      ['properties'],
    );
    for (const [id, props] of unlinked.changed) if (id !== page.id) changed.set(id, props);
  }
  const oldTitle = from ? Object.values(oldSchema).find((p) => p.type === 'title')?.id : 'title';
  const title = (oldTitle && current.get(oldTitle)) || { type: 'title', title: [] };
  await deletePageValues(db, page.id);
  if (!target) {
    await storeValue(db, page.id, null, 'title', title);
    return changed;
  }
  const kept = new Map<string, StoredValue>();
  const request: Record<string, unknown> = {};
  for (const property of Object.values(target.schema)) {
    if (property.type === 'title') {
      await storeValue(db, page.id, target.id, property.id, title);
      kept.set(property.id, title);
      continue;
    }
    const source = Object.values(oldSchema).find((p) => p.name === property.name && p.type === property.type);
    const value = source && current.get(source.id);
    if (!value) continue;
    if (COPIED.has(property.type)) {
      await storeValue(db, page.id, target.id, property.id, value);
      kept.set(property.id, value);
    } else if (property.type === 'select' || property.type === 'multi_select' || property.type === 'status') {
      const input = byName(property, value);
      if (input !== undefined) request[property.id] = input;
    }
  }
  await writePageValues(ctx, { pageId: page.id, dataSourceId: target.id, schema: target.schema, current: kept, creating: true, at }, request, ['properties']);
  return changed;
}

import { invalidField, type FieldPath } from '../../errors/validationFailure.js';
import { emptyValue } from './emptyValue.js';
import { isComputed } from './registry.js';
import { normalizeValue } from './normalizeValue.js';
import { storeValue } from './storeValue.js';
import type { StoredValue } from './storedValue.js';
import type { ValueContext } from './valueContext.js';
import { configOf, findProperty, type Property, type RelationConfig, type Schema, type UniqueIdConfig } from './schemaTypes.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { touchObject } from '../../storage/repositories/objects.js';
import type { ChangedPages } from './refreshComputed.js';

export interface PageWrite {
  pageId: string;
  dataSourceId: string;
  schema: Schema;
  /** Values the page has now, by property id (empty for a new page). */
  current: Map<string, StoredValue>;
  creating: boolean;
  at: string;
}

export interface PageWriteResult {
  /** Pages whose values changed, with what changed: the page, and the other side of dual relations. */
  changed: ChangedPages;
  /** Plain text of the title when it was written. */
  title?: string;
}

const ids = (value: StoredValue | undefined) => ((value?.relation as { id: string }[] | undefined) ?? []).map((r) => r.id);

/**
 * Keeps the other side of a dual relation in step: pages added to the relation gain this page in
 * the synced property, pages removed lose it (issue 3 item 5).
 */
async function syncPartner(ctx: ValueContext, write: PageWrite, property: Property, before: string[], after: string[], changed: ChangedPages): Promise<void> {
  const config = configOf<RelationConfig>(property);
  if (config.type !== 'dual_property' || !config.dual_property) return;
  const partnerId = config.dual_property.synced_property_id;
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  const touched = [...added, ...removed];
  if (touched.length === 0) return;
  const values = await loadValues(ctx.db, touched);
  for (const relatedId of touched) {
    const row = (values.get(relatedId) ?? []).find((v) => v.property_id === partnerId);
    const list = ids(row ? (JSON.parse(row.value) as StoredValue) : undefined).filter((id) => id !== write.pageId);
    if (added.includes(relatedId)) list.push(write.pageId);
    await storeValue(ctx.db, relatedId, config.data_source_id, partnerId, { type: 'relation', relation: list.map((id) => ({ id })) });
    if (relatedId !== write.pageId) await touchObject(ctx.db, relatedId, write.at, ctx.actorId);
    if (changed.get(relatedId) !== null) changed.set(relatedId, new Set([...(changed.get(relatedId) ?? []), partnerId]));
  }
}

/**
 * Validates and writes the `properties` of a create or update page request against the data
 * source schema. A new page also gets every other property's empty value and its unique id.
 * Computed values are left to refreshComputed.
 */
export async function writePageValues(ctx: ValueContext, write: PageWrite, request: Record<string, unknown>, path: FieldPath): Promise<PageWriteResult> {
  const result: PageWriteResult = { changed: new Map([[write.pageId, null]]) };
  const written = new Set<string>();
  for (const [key, input] of Object.entries(request)) {
    const property = findProperty(write.schema, key);
    if (!property) throw invalidField([...path, key], 'should be the name or id of a property of the data source', input);
    if (written.has(property.id)) throw invalidField([...path, key], 'should set each property once', input);
    written.add(property.id);
    const value = await normalizeValue(ctx, property, input, [...path, key]);
    if (property.type === 'relation') {
      await syncPartner(ctx, write, property, ids(write.current.get(property.id)), ids(value), result.changed);
    }
    await storeValue(ctx.db, write.pageId, write.dataSourceId, property.id, value);
    write.current.set(property.id, value);
    if (property.type === 'title') result.title = ((value.title as { plain_text: string }[]) ?? []).map((i) => i.plain_text).join('');
  }
  if (write.creating) {
    for (const property of Object.values(write.schema)) {
      if (write.current.has(property.id) || (isComputed(property.type) && property.type !== 'unique_id')) continue;
      let value = emptyValue(property);
      if (property.type === 'unique_id') {
        const config = configOf<UniqueIdConfig>(property);
        value = { type: 'unique_id', unique_id: { prefix: config.prefix, number: config.next_number++ } };
        ctx.schemaChanged = true;
      }
      await storeValue(ctx.db, write.pageId, write.dataSourceId, property.id, value);
      write.current.set(property.id, value);
    }
  }
  return result;
}

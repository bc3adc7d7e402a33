import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { ApiError } from '../../errors/registry.js';
import { decodeCursor, encodeCursor, listPage } from '../../http/cursor.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { emptyValue } from '../../domain/properties/emptyValue.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../../domain/properties/registry.js';
import type { StoredValue } from '../../domain/properties/storedValue.js';
import { findProperty, type Property, type Schema } from '../../domain/properties/schemaTypes.js';
import { findObjects, loadValues } from '../../storage/repositories/pageValues.js';
import { presentFromRow } from '../../presenters/page.js';
import { valuesAsRead } from '../../domain/properties/valuesAsRead.js';

const item = (id: string, type: string, member: unknown) => ({ object: 'property_item', id, type, [type]: member });

/**
 * GET /v1/pages/{id}/properties/{property_id}: the accurate, complete value of one property
 * (FACTS.md §1, 2022-06-28), as of now (valuesAsRead). List types are paginated with opaque
 * cursors; a rollup is a list whose `property_item.rollup` holds the result; every other type is
 * one property item.
 */
export async function retrievePageProperty(
  ctx: AppContext,
  caller: Caller,
  pageId: string,
  rawId: string,
  propertyKey: string,
  query: { start_cursor?: string; page_size?: number },
) {
  const db = ctx.store.db;
  const row = await loadVisibleObject(db, caller, pageId, ['page'], 'page', rawId);
  let schema: Schema = { title: { id: 'title', name: 'title', description: null, type: 'title', title: {} } };
  if (row.parent_type === 'data_source_id' && row.parent_id) {
    const [source] = await findObjects(db, [row.parent_id]);
    schema = (source ? parseContent<DataSourceContent>(source.content).properties : {}) as Schema;
  }
  const property: Property | undefined = findProperty(schema, propertyKey);
  if (!property) throw new ApiError('object_not_found', `Could not find property with ID: ${propertyKey}.`);
  const values = await valuesAsRead(db, [row], await loadValues(db, [row.id]), new Map(row.parent_id ? [[row.parent_id, schema]] : []));
  const stored = values.get(row.id)?.find((v) => v.property_id === property.id);
  const value: StoredValue = stored ? (JSON.parse(stored.value) as StoredValue) : emptyValue(property);
  const id = property.id;

  const { page } = PROPERTY_TYPE_DEFINITIONS[property.type];
  if (page.fromRow) return item(id, property.type, presentFromRow(row, page.fromRow));
  if (!page.referenceList && property.type !== 'rollup') return item(id, property.type, value[property.type]);

  const scope = `property_item:${row.id}:${id}`;
  const offset = query.start_cursor ? Number(decodeCursor(scope, query.start_cursor, 'start_cursor', 'query')[0]) : 0;
  const size = query.page_size ?? 100;
  let elements: Record<string, unknown>[];
  let summary: Record<string, unknown> = {};
  if (property.type === 'rollup') {
    const rollup = value.rollup as { type: string; array?: StoredValue[] };
    elements = (rollup.type === 'array' ? (rollup.array ?? []) : []).map((el) => item(id, el.type, el[el.type]));
    summary = { rollup };
  } else {
    elements = (value[property.type] as unknown[]).map((el) => item(id, property.type, el));
  }
  const results = elements.slice(offset, offset + size);
  const next = offset + size < elements.length ? encodeCursor(scope, [offset + size]) : null;
  const nextUrl = next ? `${ctx.config.publicUrl}/v1/pages/${row.id}/properties/${encodeURIComponent(id)}?start_cursor=${next}` : null;
  return listPage('property_item', results, next, {
    property_item: { id, next_url: nextUrl, type: property.type, [property.type]: property.type === 'rollup' ? summary.rollup : {} },
  });
}

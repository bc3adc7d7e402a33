import type { AppContext } from '../../context.js';
import type { Caller } from '../../auth/capabilities.js';
import { loadVisibleObject } from '../../auth/access.js';
import { ApiError } from '../../errors/registry.js';
import { decodeCursor, encodeCursor } from '../../ids/cursor.js';
import type { PropertyValueView } from '../../domain/views.js';
import { parseContent, type DataSourceContent } from '../../domain/contentShapes.js';
import { emptyValue } from '../../domain/properties/emptyValue.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../../domain/properties/registry.js';
import type { StoredValue } from '../../domain/properties/storedValue.js';
import { findProperty, type Property, type Schema } from '../../domain/properties/schemaTypes.js';
import { findObjects } from '../../storage/repositories/objects.js';
import { loadValues } from '../../storage/repositories/propertyValues.js';
import { valuesAsRead } from '../../domain/properties/valuesAsRead.js';

/**
 * GET /v1/pages/{id}/properties/{property_id}: the accurate, complete value of one property
 * (FACTS.md §1, 2022-06-28), as of now (valuesAsRead). List types and rollups are paginated with
 * opaque cursors (presenters/propertyItem.ts shows them).
 */
export async function retrievePageProperty(
  ctx: AppContext,
  caller: Caller,
  pageId: string,
  rawId: string,
  propertyKey: string,
  query: { start_cursor?: string; page_size?: number },
): Promise<PropertyValueView> {
  const db = ctx.store.db;
  const row = await loadVisibleObject(db, caller, pageId, ['page'], 'page', rawId);
  let schema: Schema = { title: { id: 'title', name: 'title', description: null, type: 'title', title: {} } };
  if (row.parent_type === 'data_source_id' && row.parent_id) {
    const [source] = await findObjects(db, [row.parent_id]);
    schema = (source ? parseContent<DataSourceContent>(source.content).properties : {}) as Schema;
  }
  const property: Property | undefined = findProperty(schema, propertyKey);
  if (!property) throw new ApiError('object_not_found', `Could not find property with ID: ${propertyKey}.`);
  const values = await valuesAsRead(db, [row], await loadValues(db, [row.id]), new Map(row.parent_id ? [[row.parent_id, schema]] : []), ctx.clock.now());
  const stored = values.get(row.id)?.find((v) => v.property_id === property.id);
  const value: StoredValue = stored ? (JSON.parse(stored.value) as StoredValue) : emptyValue(property);
  const { page } = PROPERTY_TYPE_DEFINITIONS[property.type];
  if (!page.referenceList && property.type !== 'rollup') return { row, property, value };
  const scope = `property_item:${row.id}:${property.id}`;
  const offset = query.start_cursor ? Number(decodeCursor(scope, query.start_cursor, 'start_cursor', 'query')[0]) : 0;
  const size = query.page_size ?? 100;
  const length = listLength(property.type, value);
  return { row, property, value, slice: { offset, size, nextCursor: offset + size < length ? encodeCursor(scope, [offset + size]) : null } };
}

/** How many property items a list type or rollup value holds. */
function listLength(type: string, value: StoredValue): number {
  if (type === 'rollup') {
    const rollup = value.rollup as { type: string; array?: unknown[] };
    return rollup.type === 'array' ? (rollup.array ?? []).length : 0;
  }
  return (value[type] as unknown[]).length;
}

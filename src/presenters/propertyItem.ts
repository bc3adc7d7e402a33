import type { PropertyValueView } from '../domain/views.js';
import type { StoredValue } from '../domain/properties/storedValue.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../domain/properties/registry.js';
import type { Static } from 'typebox';
import type { PropertyItemResponse } from '../schemas/pages.js';
import { presentFromRow } from './page.js';
import { presentList } from './list.js';

/** One property item: its id and type, and the member the type names (open in the schema). */
type PropertyItemJson = { object: 'property_item'; id: string; type: string } & Record<string, unknown>;

const item = (id: string, type: string, member: unknown): PropertyItemJson => ({ object: 'property_item', id, type, [type]: member });

/**
 * The answer of GET /v1/pages/{id}/properties/{property_id} (FACTS.md §3 "Property item list"):
 * one property item, or for list types a list of them, one per element; a rollup is a list whose
 * `property_item.rollup` holds the result.
 */
export function presentPropertyValue(view: PropertyValueView, options: { baseUrl: string }): Static<typeof PropertyItemResponse> {
  const { row, property, value, slice } = view;
  const id = property.id;
  const { fromRow } = PROPERTY_TYPE_DEFINITIONS[property.type].page;
  if (fromRow) return item(id, property.type, presentFromRow(row, fromRow));
  if (!slice) return item(id, property.type, value[property.type]);
  let elements: PropertyItemJson[];
  if (property.type === 'rollup') {
    const rollup = value.rollup as { type: string; array?: StoredValue[] };
    elements = (rollup.type === 'array' ? (rollup.array ?? []) : []).map((el) => item(id, el.type, el[el.type]));
  } else {
    elements = (value[property.type] as unknown[]).map((el) => item(id, property.type, el));
  }
  const next = slice.nextCursor;
  const nextUrl = next ? `${options.baseUrl}/v1/pages/${row.id}/properties/${encodeURIComponent(id)}?start_cursor=${next}` : null;
  return presentList('property_item', elements.slice(slice.offset, slice.offset + slice.size), next, {
    property_item: { id, next_url: nextUrl, type: property.type, [property.type]: property.type === 'rollup' ? value.rollup : {} },
  });
}

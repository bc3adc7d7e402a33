import { PROPERTY_TYPE_DEFINITIONS } from './registry.js';
import type { Property } from './schemaTypes.js';
import type { StoredValue } from './storedValue.js';

/** The value a page holds for a property it was never given: what the service shows for an empty cell. */
export function emptyValue(property: Property): StoredValue {
  return { type: property.type, [property.type]: PROPERTY_TYPE_DEFINITIONS[property.type].emptyValue(property) };
}

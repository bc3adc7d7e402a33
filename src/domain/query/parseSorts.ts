import { invalidField, missingField, type FieldPath } from '../../errors/validationFailure.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../properties/registry.js';
import type { Property, Schema } from '../properties/schemaTypes.js';
import { isRecord as isObject } from '../rollups/rollupAtoms.js';
import { findProperty } from './parseFilter.js';
import type { FilterConditions } from './conditions/operators.js';
import type { RowValue } from './compileEnv.js';

/** One checked sort: a property (or a timestamp of the page row) and a direction. */
export interface SortSpec {
  property: Property | null;
  row: RowValue | null;
  family: FilterConditions | null;
  descending: boolean;
}

function direction(raw: Record<string, unknown>, path: FieldPath): boolean {
  if (!('direction' in raw)) throw missingField([...path, 'direction']);
  if (raw.direction !== 'ascending' && raw.direction !== 'descending')
    throw invalidField([...path, 'direction'], 'should be one of ascending, descending', raw.direction);
  return raw.direction === 'descending';
}

/** Checks `sorts` (FACTS.md §5 "Sorts"): each `{property, direction}` or `{timestamp, direction}`, earlier ones first. */
export function parseSorts(raw: readonly unknown[], schema: Schema): SortSpec[] {
  return raw.map((sort, i) => {
    const path: FieldPath = ['sorts', i];
    if (!isObject(sort)) throw invalidField(path, 'should be an object', sort);
    for (const key of Object.keys(sort)) {
      if (key !== 'property' && key !== 'timestamp' && key !== 'direction') throw invalidField([...path, key], 'should be not present', sort[key]);
    }
    if ('timestamp' in sort) {
      if ('property' in sort) throw invalidField([...path, 'property'], 'should be not present beside timestamp', sort.property);
      if (sort.timestamp !== 'created_time' && sort.timestamp !== 'last_edited_time')
        throw invalidField([...path, 'timestamp'], 'should be one of created_time, last_edited_time', sort.timestamp);
      return { property: null, row: { column: sort.timestamp }, family: null, descending: direction(sort, path) };
    }
    if (!('property' in sort)) throw missingField([...path, 'property']);
    if (typeof sort.property !== 'string') throw invalidField([...path, 'property'], 'should be a string', sort.property);
    const property = findProperty(schema, sort.property);
    if (!property) throw invalidField([...path, 'property'], 'should be the name or id of a property of the data source', sort.property);
    const definition = PROPERTY_TYPE_DEFINITIONS[property.type];
    return { property, row: definition.page.fromRow, family: definition.filters, descending: direction(sort, path) };
  });
}

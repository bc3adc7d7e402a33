import { invalidField, missingField, type FieldPath } from '../../errors/validationFailure.js';
import { PROPERTY_TYPE_DEFINITIONS } from '../properties/registry.js';
import type { Property, Schema } from '../properties/schemaTypes.js';
import { isRecord as isObject } from '../rollups/rollupAtoms.js';
import { dateConditions } from './conditions/date.js';
import type { LeafCondition, ParseContext } from './conditions/operators.js';

/** A checked filter: compounds of leaves, each leaf a condition on one property (or a timestamp). */
export type FilterTree = { kind: 'and' | 'or'; items: FilterTree[] } | ({ kind: 'leaf' } & LeafCondition);

/** Compounds nest this deep (spec "Filter object": "supported up to two levels deep"). */
const MAX_DEPTH = 2;
/** Filters in one compound: far more than any view uses, and it bounds the statement's size. */
const MAX_ITEMS = 100;

/** What checking a filter reads: the queried data source's schema, the clock, and its neighbours. */
export type FilterSource = Omit<ParseContext, 'property' | 'parseLeaf' | 'schemaOfSelf'> & { dataSourceId: string; schema: Schema };

/** A property named by its name, or else by its id (ids as the API shows them may be URL-encoded). */
export function findProperty(schema: Schema, nameOrId: string): Property | undefined {
  const properties = Object.values(schema);
  const byName = properties.find((p) => p.name === nameOrId);
  if (byName) return byName;
  let decoded = nameOrId;
  try {
    decoded = decodeURIComponent(nameOrId);
  } catch {
    // Not URL-encoded: compared as written.
  }
  return properties.find((p) => p.id === nameOrId || p.id === decoded);
}

/** The condition `{<key>: condition}` on `property`, if the key fits its type. */
function parseLeafFor(source: FilterSource, schema: Schema, property: Property, key: string, condition: unknown, path: FieldPath): LeafCondition {
  const definition = PROPERTY_TYPE_DEFINITIONS[property.type];
  const family = definition.filters;
  if (key !== property.type && !family.keys.includes(key)) {
    const fits = [property.type, ...family.keys.filter((k) => k !== property.type)].join(', ');
    throw invalidField(
      [...path, key],
      `should be not present: the property "${property.name}" is of type ${property.type}, whose conditions are keyed ${fits}`,
      condition,
    );
  }
  const ctx: ParseContext = {
    ...source,
    property,
    schemaOfSelf: () => schema,
    parseLeaf: (other, dataSourceId, otherKey, otherCondition, otherPath) =>
      parseLeafFor(source, source.schemaOf(dataSourceId) ?? {}, other, otherKey, otherCondition, otherPath),
  };
  return { property, row: definition.page.fromRow, family, condition: family.parse(condition, [...path, key], ctx) };
}

function parseLeaf(raw: Record<string, unknown>, path: FieldPath, source: FilterSource): FilterTree {
  const { type, ...rest } = raw;
  if ('timestamp' in rest) {
    const timestamp = rest.timestamp;
    if (timestamp !== 'created_time' && timestamp !== 'last_edited_time')
      throw invalidField([...path, 'timestamp'], 'should be one of created_time, last_edited_time', timestamp);
    // Spec, Errors rule 2: a property name with a timestamp filter is an error.
    if ('property' in rest) throw invalidField([...path, 'property'], 'should be not present: a timestamp filter names no property', rest.property);
    if (type !== undefined && type !== timestamp) throw invalidField([...path, 'type'], `should be ${timestamp}`, type);
    for (const key of Object.keys(rest)) {
      if (key !== 'timestamp' && key !== timestamp)
        throw invalidField([...path, key], `should be not present: a timestamp filter has the keys timestamp and ${timestamp}`, rest[key]);
    }
    if (!(timestamp in rest)) throw missingField([...path, timestamp]);
    const ctx: ParseContext = {
      ...source,
      property: null,
      schemaOfSelf: () => source.schema,
      parseLeaf: () => {
        throw new Error('a timestamp condition has no nested conditions');
      },
    };
    return {
      kind: 'leaf',
      property: null,
      row: { column: timestamp },
      family: dateConditions,
      condition: dateConditions.parse(rest[timestamp], [...path, timestamp], ctx),
    };
  }
  if (!('property' in rest)) throw missingField([...path, 'property']);
  const name = rest.property;
  if (typeof name !== 'string') throw invalidField([...path, 'property'], 'should be a string', name);
  const property = findProperty(source.schema, name);
  if (!property) throw invalidField([...path, 'property'], 'should be the name or id of a property of the data source', name);
  const keys = Object.keys(rest).filter((k) => k !== 'property');
  if (keys.length !== 1) {
    throw invalidField(path, `should have exactly one condition key besides property (for "${property.name}": ${property.type})`, raw);
  }
  const [key] = keys;
  if (type !== undefined && type !== key) throw invalidField([...path, 'type'], `should be ${key}`, type);
  return { kind: 'leaf', ...parseLeafFor(source, source.schema, property, key, rest[key], path) };
}

function parseNode(raw: unknown, path: FieldPath, source: FilterSource, depth: number): FilterTree {
  if (!isObject(raw)) throw invalidField(path, 'should be an object', raw);
  const compound = 'and' in raw ? 'and' : 'or' in raw ? 'or' : null;
  if (!compound) return parseLeaf(raw, path, source);
  const extra = Object.keys(raw).find((k) => k !== compound);
  if (extra !== undefined) throw invalidField([...path, extra], `should be not present beside ${compound}`, raw[extra]);
  if (depth >= MAX_DEPTH) throw invalidField(path, `should be a property or timestamp filter: compound filters nest at most ${MAX_DEPTH} levels deep`, raw);
  const items = raw[compound];
  if (!Array.isArray(items)) throw invalidField([...path, compound], 'should be an array', items);
  if (items.length > MAX_ITEMS) throw invalidField([...path, compound], `should have at most ${MAX_ITEMS} filters`, `${items.length} filters`);
  return { kind: compound, items: items.map((item, i) => parseNode(item, [...path, compound, i], source, depth + 1)) };
}

/** Checks a request's `filter` against the data source's schema; every error names its path (`filter.and[1].number.equals`). */
export function parseFilter(raw: unknown, source: FilterSource): FilterTree {
  return parseNode(raw, ['filter'], source, 0);
}

import type { Db } from '../../storage/db.js';
import type { ObjectRow } from '../../storage/schema.js';
import { invalidField, ValidationFailure, type FieldPath } from '../../errors/validationFailure.js';
import { assertMatches } from '../../schemas/properties.js';
import { VIEW_CONFIG_SCHEMAS, type ViewType } from '../../schemas/databaseViews.js';
import { parsedSchema } from '../properties/parsedSchemas.js';
import type { Schema } from '../properties/schemaTypes.js';
import { findProperty, parseFilter, type FilterSource } from '../query/parseFilter.js';
import { parseSorts } from '../query/parseSorts.js';
import { formulaResults, relatedSchemas } from '../query/relatedSchemas.js';
import { isRecord } from '../isRecord.js';

/** What checking a view's filter, sorts and configuration reads: the data source's schema and its neighbours'. */
export interface ViewSchema {
  schema: Schema;
  filterSource: FilterSource;
}

export async function loadViewSchema(db: Db, source: ObjectRow, now: Date): Promise<ViewSchema> {
  const schema = parsedSchema(source.id, source.content).schema;
  const schemas = await relatedSchemas(db, source, schema);
  return {
    schema,
    filterSource: { dataSourceId: source.id, schema, schemaOf: (id) => schemas.get(id), formulaResultOf: formulaResults(schemas), now },
  };
}

/**
 * A view's filter and sorts are checked by the data-source query's own checks (parseFilter,
 * parseSorts), so a view saves nothing a query of its data source would refuse, and a view query
 * runs what was checked. Errors name `body.filter…` / `body.sorts[i]…` as a query's do.
 */
export function checkFilterAndSorts(view: ViewSchema, filter: unknown, sorts: readonly unknown[] | null | undefined): void {
  if (filter !== null && filter !== undefined) {
    parseFilter(filter, view.filterSource);
    checkOptionNames(filter, view.schema, ['filter']);
  }
  if (sorts) parseSorts(sorts, view.schema);
}

/** The conditions of select, status and multi-select filters that name options. */
const NAMING_OPERATORS = new Set(['equals', 'does_not_equal', 'contains', 'does_not_contain']);

/**
 * A view's select, status and multi-select conditions name options the property has (status also
 * its groups), and a name that is none is refused listing the names there are (FACTS.md §10.8
 * 8.2). A data-source query takes any name (it matches no page): the service checks views only.
 * Run on a filter parseFilter accepted, so its shape is known good.
 */
function checkOptionNames(raw: unknown, schema: Schema, path: FieldPath): void {
  if (!isRecord(raw)) return;
  for (const compound of ['and', 'or'] as const) {
    const items = raw[compound];
    if (Array.isArray(items)) return items.forEach((item, i) => checkOptionNames(item, schema, [...path, compound, i]));
  }
  if (typeof raw.property !== 'string') return;
  const property = findProperty(schema, raw.property);
  if (!property || (property.type !== 'select' && property.type !== 'status' && property.type !== 'multi_select')) return;
  const config = (property[property.type] ?? {}) as { options?: { name: string }[]; groups?: { name: string }[] };
  const names = [...(config.options ?? []), ...(property.type === 'status' ? (config.groups ?? []) : [])].map((o) => o.name);
  const key = property.type;
  const condition = raw[key];
  if (!isRecord(condition)) return;
  for (const [op, value] of Object.entries(condition)) {
    if (!NAMING_OPERATORS.has(op)) continue;
    const given = Array.isArray(value) ? value : [value];
    given.forEach((name, i) => {
      if (typeof name !== 'string' || names.includes(name)) return;
      const at: FieldPath = Array.isArray(value) ? [...path, key, op, i] : [...path, key, op];
      const what = property.type === 'status' ? 'an option or group' : 'an option';
      const known = names.length === 0 ? 'it has none' : names.map((n) => JSON.stringify(n)).join(', ');
      throw invalidField(at, `should be the name of ${what} of "${property.name}" (${known})`, name);
    });
  }
}

/**
 * Quick filters: property (name or id) → a condition without `property`, or `{}` for a quick filter
 * without criteria (FACTS.md §10.8 8.2). A condition is checked as the leaf filter it stands for.
 */
export function checkQuickFilters(view: ViewSchema, quickFilters: Readonly<Record<string, unknown>>): void {
  for (const [key, condition] of Object.entries(quickFilters)) {
    const path: FieldPath = ['quick_filters', key];
    if (condition === null) continue;
    if (!isRecord(condition)) throw invalidField(path, 'should be an object', condition);
    if (!findProperty(view.schema, key)) throw invalidField(path, 'should be keyed by the name or id of a property of the data source', key);
    if ('property' in condition) throw invalidField([...path, 'property'], 'should be not present: the key names the property', condition.property);
    if (Object.keys(condition).length === 0) continue;
    try {
      parseFilter({ property: key, ...condition }, view.filterSource);
      checkOptionNames({ property: key, ...condition }, view.schema, ['filter']);
    } catch (error) {
      // The leaf was checked at `filter`; the caller wrote it at `quick_filters.<key>`.
      if (error instanceof ValidationFailure) throw error.at([...path, ...error.path.slice(1)]);
      throw error;
    }
  }
}

/**
 * A configuration as a request gives it: its `type` must be the view's, dashboards' is read-only,
 * and the rest must match that type's schema (FACTS.md §10.8 8.3), each property it names being
 * one of the data source's.
 */
export function checkConfiguration(view: ViewSchema | null, type: ViewType, configuration: Record<string, unknown>): void {
  const path: FieldPath = ['configuration'];
  if (type === 'dashboard') throw invalidField(path, 'should be not present: a dashboard view’s configuration is read-only', configuration);
  if (configuration.type !== type) throw invalidField([...path, 'type'], `should be \`${type}\`, the view's type`, configuration.type);
  assertMatches(VIEW_CONFIG_SCHEMAS[type], configuration, path);
  if (!view) return;
  for (const [refPath, ref] of propertyRefs(configuration, path)) {
    if (!findProperty(view.schema, ref)) throw invalidField(refPath, 'should be the name or id of a property of the data source', ref);
  }
}

/** The property references a configuration holds, with where each is. */
function propertyRefs(configuration: Record<string, unknown>, path: FieldPath): [FieldPath, string][] {
  const refs: [FieldPath, string][] = [];
  const add = (at: FieldPath, value: unknown) => {
    if (typeof value === 'string') refs.push([at, value]);
  };
  for (const key of ['date_property_id', 'end_date_property_id', 'map_by', 'x_axis_property_id', 'y_axis_property_id']) add([...path, key], configuration[key]);
  for (const key of ['group_by', 'sub_group_by', 'x_axis', 'stack_by', 'y_axis', 'value', 'cover', 'arrows_by', 'subtasks']) {
    const member = configuration[key];
    if (isRecord(member)) add([...path, key, 'property_id'], member.property_id);
  }
  for (const key of ['properties', 'table_properties']) {
    const list = configuration[key];
    if (Array.isArray(list)) list.forEach((item, i) => isRecord(item) && add([...path, key, i, 'property_id'], item.property_id));
  }
  return refs;
}

/** PATCH merges configurations shallowly; a member set to null is cleared (FACTS.md §10.8 8.5). */
export function mergeConfiguration(stored: Record<string, unknown> | null, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(stored ?? {}), ...patch };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return merged;
}

/** PATCH merges quick filters by key; a key set to null removes that quick filter. */
export function mergeQuickFilters(stored: Record<string, unknown> | null, patch: Record<string, unknown>): Record<string, unknown> | null {
  const merged: Record<string, unknown> = { ...(stored ?? {}), ...patch };
  for (const key of Object.keys(merged)) if (merged[key] === null) delete merged[key];
  return Object.keys(merged).length === 0 ? null : merged;
}

/** A dashboard shows widgets, not a data source: it has nothing to filter, sort or quick-filter. */
export function refuseDashboardQuery(body: { filter?: unknown; sorts?: unknown; quick_filters?: unknown }): void {
  for (const key of ['filter', 'sorts', 'quick_filters'] as const) {
    const value = body[key];
    if (value !== undefined && value !== null) throw invalidField([key], 'should be not present: a dashboard view shows no data source of its own', value);
  }
}

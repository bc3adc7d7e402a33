import { configOf, type Property, type RelationConfig, type Schema, type StatusConfig } from '../properties/schemaTypes.js';
import type { StoredValue } from '../properties/storedValue.js';

/** Values that mean the same in any data source: copied as they are. */
const COPIED = new Set(['rich_text', 'number', 'checkbox', 'date', 'url', 'email', 'phone_number', 'people', 'files']);

/** Where another page's values go in a target schema: stored as they are (`direct`) or written through the value rules (`request`). */
export interface MappedValues {
  direct: Map<string, StoredValue>;
  request: Record<string, unknown>;
}

const optionName = (value: unknown) => (value as { name?: string } | null)?.name;

/**
 * What a select, multi-select or status value asks of the target: the option by name (a select
 * may gain it, as on any write; a status only keeps a name the target already has).
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
 * Maps the values a page has under `source` (null: a page outside any data source, which has only
 * its title) onto `target` (docs/decisions.md, "Move, templates, custom emojis"): the title goes
 * to the target's title; any other value goes to the target property of the same name and type,
 * for the types whose values mean the same anywhere; a relation only when both point at the same
 * data source. Computed values, unique ids and anything else are left behind.
 */
export function mapValuesByName(source: Schema | null, values: ReadonlyMap<string, StoredValue>, target: Schema): MappedValues {
  const mapped: MappedValues = { direct: new Map(), request: {} };
  const sourceProperties = Object.values(source ?? {});
  for (const property of Object.values(target)) {
    if (property.type === 'title') {
      const from = source ? sourceProperties.find((p) => p.type === 'title')?.id : 'title';
      const value = from ? values.get(from) : undefined;
      if (value) mapped.direct.set(property.id, value);
      continue;
    }
    const from = sourceProperties.find((p) => p.name === property.name && p.type === property.type);
    const value = from && values.get(from.id);
    if (!from || !value) continue;
    if (COPIED.has(property.type)) mapped.direct.set(property.id, value);
    else if (property.type === 'select' || property.type === 'multi_select' || property.type === 'status') {
      const input = byName(property, value);
      if (input !== undefined) mapped.request[property.id] = input;
    } else if (property.type === 'relation' && configOf<RelationConfig>(property).data_source_id === configOf<RelationConfig>(from).data_source_id) {
      mapped.request[property.id] = { relation: ((value.relation as { id: string }[]) ?? []).map((r) => ({ id: r.id })) };
    }
  }
  return mapped;
}

import { randomBytes, randomUUID } from 'node:crypto';
import type { PropertySchema } from '../contentShapes.js';
import type { RollupFunction } from '../../schemas/rollupFunctions.js';
import type { PropertyType, SelectColor } from '../../schemas/propertyTypes.js';

/** Typed views of the configurations kept in DataSourceContent.properties (keyed by property id). */
export interface SelectOption {
  id: string;
  name: string;
  color: SelectColor;
  description: string | null;
}

export interface StatusOption extends SelectOption {
  group: string;
}

export interface StatusGroup {
  id: string;
  name: string;
  color: string;
  option_ids: string[];
}

export interface SelectConfig {
  options: SelectOption[];
}

export interface StatusConfig {
  options: StatusOption[];
  groups: StatusGroup[];
}

export interface RelationConfig {
  database_id: string;
  data_source_id: string;
  type: 'single_property' | 'dual_property';
  single_property?: Record<string, never>;
  dual_property?: { synced_property_id: string; synced_property_name: string };
}

export interface RollupConfig {
  function: RollupFunction;
  relation_property_id: string;
  relation_property_name: string;
  rollup_property_id: string;
  rollup_property_name: string;
}

export interface UniqueIdConfig {
  prefix: string | null;
  /** Next number to hand out; internal, never presented. */
  next_number: number;
}

export interface Property extends PropertySchema {
  type: PropertyType;
}

export type Schema = Record<string, Property>;

export function configOf<T>(property: Property): T {
  return property[property.type] as T;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Short URL-safe property ids, like the service's four-character ids (FACTS.md §6: property ids
 * are URL-safe). The first character is a letter so an id never looks like an array index, which
 * would also reorder JSON object keys.
 */
export function newPropertyId(taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let length = 4; ; length++) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const bytes = randomBytes(length);
      let id = ID_ALPHABET[bytes[0] % 52];
      for (let i = 1; i < length; i++) id += ID_ALPHABET[bytes[i] % ID_ALPHABET.length];
      if (!used.has(id) && id !== 'title') return id;
    }
  }
}

export function newOptionId(): string {
  return randomUUID();
}

/** Finds a property by id first, then by name, as request keys may be either. */
export function findProperty(schema: Schema, key: string): Property | undefined {
  if (schema[key]) return schema[key];
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    // not percent-encoded
  }
  if (schema[decoded]) return schema[decoded];
  return Object.values(schema).find((p) => p.name === key);
}

export function titleProperty(schema: Schema): Property | undefined {
  return Object.values(schema).find((p) => p.type === 'title');
}

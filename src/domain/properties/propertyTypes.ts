import { PROPERTY_TYPES, type PropertyType, type SelectColor, type StatusGroupName } from '../../schemas/propertyTypes.js';

// The vocabulary (type names, colours, number formats, status groups, limits) is in
// src/schemas/propertyTypes.ts, below the domain, where the request schemas use it too.

export function isPropertyType(value: unknown): value is PropertyType {
  return typeof value === 'string' && (PROPERTY_TYPES as readonly string[]).includes(value);
}

/** How many references of a list a page shows (FACTS.md §6 "Size limits"); types/definition.ts `PageRules`. */
export const PAGE_REFERENCE_LIMIT = 25;

/** A status property created without options gets these (status option groups reference). */
export const DEFAULT_STATUS_OPTIONS: readonly { name: string; color: SelectColor; group: StatusGroupName }[] = [
  { name: 'Not started', color: 'default', group: 'To-do' },
  { name: 'In progress', color: 'blue', group: 'In progress' },
  { name: 'Done', color: 'green', group: 'Complete' },
];

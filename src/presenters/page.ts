import type { ObjectRow } from '../storage/schema.js';
import type { PresentedValueRow } from '../storage/repositories/pageValues.js';
import { partialUser, presentTimestamp } from './time.js';
import type { PageContent } from '../domain/contentShapes.js';
import { PAGE_REFERENCE_LIMIT, REFERENCE_LIST_TYPES } from '../domain/properties/propertyTypes.js';

export function presentParent(row: Pick<ObjectRow, 'parent_type' | 'parent_id'>, databaseId?: string | null): Record<string, unknown> {
  switch (row.parent_type) {
    case 'workspace':
      return { type: 'workspace', workspace: true };
    case 'data_source_id':
      return { type: 'data_source_id', data_source_id: row.parent_id, database_id: databaseId ?? null };
    default:
      return { type: row.parent_type, [row.parent_type]: row.parent_id };
  }
}

export function objectUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/${id.replace(/-/g, '')}`;
}

/**
 * Data an older API version needs that the newest shape does not carry (a page's enclosing page
 * before 2022-06-28, a database's properties before 2025-09-03). It rides along in the response
 * object for the version modules to read and is never serialised: JSON.stringify drops a member
 * whose toJSON returns undefined, and the version modules remove it.
 */
export function legacyHint<T extends object>(data: T): T & { toJSON(): undefined } {
  return { ...data, toJSON: () => undefined };
}

export const LEGACY_HINT = '_legacy';

/** A stored value as the page shows it: timestamps and authors from the row, long lists cut at 25. */
function presentValue(row: ObjectRow, propertyId: string, stored: Record<string, unknown>): Record<string, unknown> {
  const type = stored.type as string;
  switch (type) {
    case 'created_time':
      return { id: propertyId, type, created_time: presentTimestamp(row.created_time) };
    case 'last_edited_time':
      return { id: propertyId, type, last_edited_time: presentTimestamp(row.last_edited_time) };
    case 'created_by':
      return { id: propertyId, type, created_by: partialUser(row.created_by) };
    case 'last_edited_by':
      return { id: propertyId, type, last_edited_by: partialUser(row.last_edited_by) };
  }
  const value: Record<string, unknown> = { id: propertyId, ...stored };
  if (REFERENCE_LIST_TYPES.has(type) && Array.isArray(stored[type])) {
    const list = stored[type] as unknown[];
    value[type] = list.slice(0, PAGE_REFERENCE_LIMIT);
    // The rest is read through the property item endpoint (FACTS.md §6 "Size limits").
    if (type === 'relation') value.has_more = list.length > PAGE_REFERENCE_LIMIT;
  }
  return value;
}

export interface PresentPageOptions {
  baseUrl: string;
  /** Property id → name: the data source schema. Pages outside a database only have "title". */
  names?: ReadonlyMap<string, string>;
  databaseId?: string | null;
  /** `filter_properties`: ids (or names) of the properties to include. */
  filterProperties?: ReadonlySet<string>;
  /** The page an object under a block sits in (for versions before 2022-06-28). */
  enclosingPageId?: string | null;
}

/**
 * The page object at the newest version (spec "Page object"; FACTS.md §9), built field by field.
 * `names` maps property ids to names (the data source schema); pages outside a database have
 * only their title, named "title".
 */
export function presentPage(row: ObjectRow, values: readonly PresentedValueRow[], options: PresentPageOptions): Record<string, unknown> {
  const content = JSON.parse(row.content) as PageContent;
  const properties: Record<string, unknown> = {};
  for (const value of values) {
    const name = options.names ? options.names.get(value.property_id) : value.property_id === 'title' ? 'title' : undefined;
    if (name === undefined) continue;
    if (options.filterProperties && !options.filterProperties.has(value.property_id) && !options.filterProperties.has(name)) continue;
    properties[name] = presentValue(row, value.property_id, JSON.parse(value.value) as Record<string, unknown>);
  }
  const page: Record<string, unknown> = {
    object: 'page',
    id: row.id,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    cover: content.cover ?? null,
    icon: content.icon ?? null,
    parent: presentParent(row, options.databaseId),
    in_trash: row.in_trash === 1,
    is_archived: row.is_archived === 1,
    is_locked: row.is_locked === 1,
    properties,
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
  if (options.enclosingPageId) page[LEGACY_HINT] = legacyHint({ enclosing_page_id: options.enclosingPageId });
  return page;
}

/** The partial page returned to a connection that may create but not read (FACTS.md §2 capabilities). */
export function presentPartialPage(row: Pick<ObjectRow, 'id'>): Record<string, unknown> {
  return { object: 'page', id: row.id };
}

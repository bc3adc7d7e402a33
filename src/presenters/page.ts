import type { ObjectRow } from '../storage/schema.js';
import type { PresentedValueRow } from '../storage/repositories/pageValues.js';
import { partialUser, presentTimestamp } from './time.js';
import type { PageContent } from '../domain/contentShapes.js';
import { PAGE_REFERENCE_LIMIT, REFERENCE_LIST_TYPES } from '../domain/properties/propertyTypes.js';
import type { JsonSplice } from './jsonSplice.js';

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

/**
 * A stored value no longer than this holds at most PAGE_REFERENCE_LIMIT items in any list: 26
 * items of the smallest kind, a relation's {"id":"<uuid>"} (43 characters), need 1,143.
 */
const SHORT_ENOUGH_FOR_ANY_LIST = 26 * 43 + 25;

/** Types not shown as stored: from the page row, or (relation) with has_more added. */
const NOT_AS_STORED = new Set(['created_time', 'last_edited_time', 'created_by', 'last_edited_by', 'relation']);

const TYPE_PREFIX = '{"type":"';

/**
 * A stored value for a splice (jsonSplice.ts): when it is shown as stored with its id in front,
 * as its text; otherwise (values from the row, relations, lists that may need cutting, or text
 * this code did not write) parsed and presented as usual.
 */
function presentStoredText(row: ObjectRow, propertyId: string, text: string, splice: JsonSplice): unknown {
  const typeEnd = text.startsWith(TYPE_PREFIX) ? text.indexOf('"', TYPE_PREFIX.length) : -1;
  const type = typeEnd > 0 ? text.slice(TYPE_PREFIX.length, typeEnd) : null;
  if (type === null || NOT_AS_STORED.has(type) || text.length >= SHORT_ENOUGH_FOR_ANY_LIST) {
    return presentValue(row, propertyId, JSON.parse(text) as Record<string, unknown>);
  }
  return splice.add(`{"id":${JSON.stringify(propertyId)},${text.slice(1)}`);
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
  /** Values shown as stored go into the response as their text (jsonSplice.ts). */
  splice?: JsonSplice;
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
    properties[name] = options.splice
      ? presentStoredText(row, value.property_id, value.value, options.splice)
      : presentValue(row, value.property_id, JSON.parse(value.value) as Record<string, unknown>);
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

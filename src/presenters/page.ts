import type { ObjectRow } from '../storage/schema.js';
import type { PropertyValueRow } from '../storage/repositories/propertyValues.js';
import { partialUser, presentTimestamp } from './time.js';
import type { PageContent } from '../domain/contentShapes.js';

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
 * The page object at the newest version (spec "Page object"; FACTS.md §9), built field by field.
 * `names` maps property ids to names (the data source schema); pages outside a database have
 * only their title, named "title".
 */
export function presentPage(
  row: ObjectRow,
  values: readonly PropertyValueRow[],
  options: { baseUrl: string; names?: ReadonlyMap<string, string>; databaseId?: string | null },
): Record<string, unknown> {
  const content = JSON.parse(row.content) as PageContent;
  const properties: Record<string, unknown> = {};
  for (const value of values) {
    const name = options.names?.get(value.property_id) ?? (value.property_id === 'title' ? 'title' : undefined);
    if (name === undefined) continue;
    properties[name] = { id: value.property_id, ...(JSON.parse(value.value) as Record<string, unknown>) };
  }
  return {
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
}

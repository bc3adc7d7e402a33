import type { ObjectRow } from '../storage/schema.js';
import { parseContent, type DatabaseContent, type DataSourceContent } from '../domain/contentShapes.js';
import { LEGACY_HINT, legacyHint, objectUrl, presentParent } from './page.js';
import { presentProperties } from './dataSource.js';
import { partialUser, presentTimestamp } from './time.js';

/**
 * The database object at the newest version (FACTS.md §9 "Database (2025-09-03+)"): a container
 * listing its data sources, without properties. Versions before 2025-09-03 show the properties of
 * its first data source, and its authors; they ride along as a legacy hint.
 */
export function presentDatabase(row: ObjectRow, dataSources: readonly ObjectRow[], options: { baseUrl: string }): Record<string, unknown> {
  const content = parseContent<DatabaseContent>(row.content);
  const listed = dataSources.filter((s) => s.trashed === 0);
  const first = listed[0] ?? dataSources[0];
  const database: Record<string, unknown> = {
    object: 'database',
    id: row.id,
    title: content.title,
    description: content.description,
    parent: presentParent(row),
    is_inline: content.is_inline,
    in_trash: row.in_trash === 1,
    is_locked: row.is_locked === 1,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    data_sources: listed.map((s) => ({ id: s.id, name: s.title })),
    icon: content.icon ?? null,
    cover: content.cover ?? null,
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
  database[LEGACY_HINT] = legacyHint({
    properties: first ? presentProperties(parseContent<DataSourceContent>(first.content).properties) : {},
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
  });
  return database;
}

export function presentPartialDatabase(row: Pick<ObjectRow, 'id'>): Record<string, unknown> {
  return { object: 'database', id: row.id };
}

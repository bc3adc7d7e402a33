import { parseContent, type DatabaseContent, type DataSourceContent } from '../domain/contentShapes.js';
import type { DatabaseView, Unreadable } from '../domain/views.js';
import type { OlderVersionFacts } from '../versioning/change.js';
import { presentParent } from './page.js';
import { objectUrl } from '../ids/objectUrl.js';
import { presentProperties } from './dataSource.js';
import { partialUser, presentTimestamp } from './time.js';
import type { Static } from 'typebox';
import type { DatabaseObject, WrittenDatabaseResponse } from '../schemas/databases.js';
import type { FileObject } from '../schemas/objectParts.js';

/** Data sources a database lists: those not in the trash. */
const listedSources = (view: DatabaseView) => view.dataSources.filter((s) => s.trashed === 0);

/**
 * The database object at the newest version (FACTS.md §9 "Database (2025-09-03+)"): a container
 * listing its data sources, without properties.
 */
export function presentDatabase(view: DatabaseView, options: { baseUrl: string }): Static<typeof DatabaseObject> {
  const { row } = view;
  const content = parseContent<DatabaseContent>(row.content);
  return {
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
    data_sources: listedSources(view).map((s) => ({ id: s.id, name: s.title })),
    icon: (content.icon ?? null) as Static<typeof FileObject>,
    cover: (content.cover ?? null) as Static<typeof FileObject>,
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
}

/** A written database: in full, or only `{object, id}` to a connection that may create but not read. */
export function presentWrittenDatabase(view: DatabaseView | Unreadable, options: { baseUrl: string }): Static<typeof WrittenDatabaseResponse> {
  if (view.kind === 'unreadable') return { object: 'database', id: view.id };
  return presentDatabase(view, options);
}

/** What a database showed before 2025-09-03 and no longer does: its first data source's properties, and its authors. */
export function presentDatabaseFacts(view: DatabaseView | Unreadable): OlderVersionFacts {
  if (view.kind === 'unreadable') return {};
  const first = listedSources(view)[0] ?? view.dataSources[0];
  return {
    databaseSchema: {
      properties: first ? presentProperties(parseContent<DataSourceContent>(first.content).properties) : {},
      created_by: partialUser(view.row.created_by),
      last_edited_by: partialUser(view.row.last_edited_by),
    },
  };
}

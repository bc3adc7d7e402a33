import type { DataSourceView, Unreadable } from '../domain/views.js';
import { parseContent, type DataSourceContent, type PropertySchema } from '../domain/contentShapes.js';
import { definitionOf } from '../domain/properties/registry.js';
import { presentParent } from './page.js';
import { objectUrl } from '../ids/objectUrl.js';
import { partialUser, presentTimestamp } from './time.js';
import type { Static } from 'typebox';
import type { DataSourceObject, PropertySchemaResponse, WrittenDataSourceResponse } from '../schemas/dataSources.js';
import type { FileObject } from '../schemas/objectParts.js';

type DataSourceJson = Static<typeof DataSourceObject>;
/** A property as a data source shows it: the member its type names holds the configuration (open in the schema). */
type PropertyJson = Static<typeof PropertySchemaResponse> & Record<string, unknown>;

type Config = Record<string, unknown>;

/** The type member of a property, field by field, by its type's rule (internal counters stay out). */
function presentConfig(property: PropertySchema): Config {
  return definitionOf(property.type)?.presentConfig((property[property.type] ?? {}) as Config) ?? {};
}

/** `properties` of a data source: name → `{id, name, description, type, <type>: config}`. */
export function presentProperties(schema: Record<string, PropertySchema>): Record<string, PropertyJson> {
  const properties: Record<string, PropertyJson> = {};
  for (const p of Object.values(schema)) {
    properties[p.name] = { id: p.id, name: p.name, description: p.description ?? null, type: p.type, [p.type]: presentConfig(p) };
  }
  return properties;
}

/** The data source object at the newest version (FACTS.md §9), from its row and its database's row. */
export function presentDataSource(view: DataSourceView, options: { baseUrl: string }): DataSourceJson {
  const { row, database } = view;
  const content = parseContent<DataSourceContent>(row.content);
  const databaseContent = database ? parseContent<{ is_inline?: boolean }>(database.content) : {};
  return {
    object: 'data_source',
    id: row.id,
    created_time: presentTimestamp(row.created_time),
    last_edited_time: presentTimestamp(row.last_edited_time),
    created_by: partialUser(row.created_by),
    last_edited_by: partialUser(row.last_edited_by),
    title: content.title,
    description: content.description,
    icon: (content.icon ?? null) as Static<typeof FileObject>,
    cover: null,
    // A data source's parent is always its database.
    parent: { type: 'database_id', database_id: row.parent_id as string },
    database_parent: database ? presentParent(database) : null,
    is_inline: databaseContent.is_inline ?? false,
    in_trash: row.in_trash === 1,
    properties: presentProperties(content.properties),
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
}

/** A written data source: in full, or only `{object, id}` to a connection that may create but not read. */
export function presentWrittenDataSource(view: DataSourceView | Unreadable, options: { baseUrl: string }): Static<typeof WrittenDataSourceResponse> {
  if (view.kind === 'unreadable') return { object: 'data_source', id: view.id };
  return presentDataSource(view, options);
}

import type { DataSourceView, Unreadable } from '../domain/views.js';
import { parseContent, type DataSourceContent, type PropertySchema } from '../domain/contentShapes.js';
import { objectUrl, presentParent } from './page.js';
import { partialUser, presentTimestamp } from './time.js';

type Config = Record<string, unknown>;

const option = (o: Config) => ({ id: o.id, name: o.name, color: o.color, description: o.description ?? null });

/** The type member of a property, field by field (internal counters stay out). */
function presentConfig(property: PropertySchema): Config {
  const config = (property[property.type] ?? {}) as Config;
  switch (property.type) {
    case 'number':
      return { format: config.format ?? 'number' };
    case 'select':
    case 'multi_select':
      return { options: ((config.options ?? []) as Config[]).map(option) };
    case 'status':
      return {
        options: ((config.options ?? []) as Config[]).map((o) => ({ ...option(o), group: o.group })),
        groups: ((config.groups ?? []) as Config[]).map((g) => ({ id: g.id, name: g.name, color: g.color, option_ids: g.option_ids })),
      };
    case 'formula':
      return { expression: config.expression ?? '' };
    case 'relation': {
      const base = { database_id: config.database_id, data_source_id: config.data_source_id, type: config.type };
      if (config.type === 'dual_property') {
        const dual = (config.dual_property ?? {}) as Config;
        return { ...base, dual_property: { synced_property_id: dual.synced_property_id, synced_property_name: dual.synced_property_name } };
      }
      return { ...base, single_property: {} };
    }
    case 'rollup':
      return {
        function: config.function,
        relation_property_id: config.relation_property_id,
        relation_property_name: config.relation_property_name,
        rollup_property_id: config.rollup_property_id,
        rollup_property_name: config.rollup_property_name,
      };
    case 'unique_id':
      return { prefix: config.prefix ?? null };
    default:
      return {};
  }
}

/** `properties` of a data source: name → `{id, name, description, type, <type>: config}`. */
export function presentProperties(schema: Record<string, PropertySchema>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const p of Object.values(schema)) {
    properties[p.name] = { id: p.id, name: p.name, description: p.description ?? null, type: p.type, [p.type]: presentConfig(p) };
  }
  return properties;
}

/** The data source object at the newest version (FACTS.md §9), from its row and its database's row. */
export function presentDataSource(view: DataSourceView, options: { baseUrl: string }): Record<string, unknown> {
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
    icon: content.icon ?? null,
    cover: null,
    parent: { type: 'database_id', database_id: row.parent_id },
    database_parent: database ? presentParent(database) : null,
    is_inline: databaseContent.is_inline ?? false,
    in_trash: row.in_trash === 1,
    properties: presentProperties(content.properties),
    url: objectUrl(options.baseUrl, row.id),
    public_url: null,
  };
}

/** A written data source: in full, or only `{object, id}` to a connection that may create but not read. */
export function presentWrittenDataSource(view: DataSourceView | Unreadable, options: { baseUrl: string }): Record<string, unknown> {
  if (view.kind === 'unreadable') return { object: 'data_source', id: view.id };
  return presentDataSource(view, options);
}

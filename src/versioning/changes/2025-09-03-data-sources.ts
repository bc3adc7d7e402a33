import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import {
  addProperty,
  dropParentTypes,
  forEachObjectSchema,
  removeProperty,
  renameListType,
  renameProperty,
  requestSchema,
  successSchema,
} from '../openapiDocument.js';
import type { OlderVersionFacts } from '../change.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Relation configurations lose `data_source_id`: before the split they named the database only. */
function withoutSourceIds(properties: unknown): unknown {
  if (!isObject(properties)) return properties;
  const out: Obj = {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property) && property.type === 'relation' && isObject(property.relation)) {
      const { data_source_id: _source, ...relation } = property.relation;
      out[name] = { ...property, relation };
    } else {
      out[name] = property;
    }
  }
  return out;
}

/**
 * A database before the split carries the properties of its (single) data source and its authors
 * (given beside the response for the database it is about), and lists no data sources. Key order
 * follows the old object.
 */
function oldDatabase(database: Obj, hint: OlderVersionFacts['databaseSchema']): Obj {
  const { data_sources: _sources, ...rest } = database;
  if (!hint) return { ...rest, ...('properties' in rest ? { properties: withoutSourceIds(rest.properties) } : {}) };
  const out: Obj = {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] = value;
    if (key === 'last_edited_time') {
      out.created_by = hint.created_by;
      out.last_edited_by = hint.last_edited_by;
    }
  }
  out.properties = withoutSourceIds(hint.properties);
  return out;
}

/**
 * FACTS.md §1, 2025-09-03: databases became containers of data sources. Before it, a database
 * object has `properties` (its only data source's schema) and no `data_sources`; POST
 * /v1/databases takes `properties` (now `initial_data_source.properties`); a page in a database
 * has the parent `{type: "database_id"}` (now `data_source_id`, with `database_id` beside it);
 * relation configurations name no data source; the /v1/data_sources endpoints do not exist.
 * Searching is converted by its own module (2025-09-03-search).
 */
export const dataSourcesSplit: VersionChange = {
  version: '2025-09-03',
  description:
    'Databases and data sources split: a database lists `data_sources` instead of carrying `properties`; `POST /v1/databases` takes `initial_data_source` (was `properties`); pages in a database have the parent `data_source_id` (was `database_id`); relations name a `data_source_id`; the `/v1/data_sources` endpoints are added.',
  // Replaced by POST /v1/data_sources/{id}/query.
  removedRoutes: ['POST /v1/databases/:database_id/query'],
  addedRoutes: ['/v1/data_sources'],
  upgradeRequest(request) {
    if (request.route !== 'POST /v1/databases' || !isObject(request.body)) return;
    const { properties, ...body } = request.body;
    // Only the old shape is converted; a body already in the new shape fails HEAD validation as it would have then.
    if (properties === undefined || 'initial_data_source' in body) return;
    request.body = { ...body, initial_data_source: { properties } };
  },
  callerPath(path, route) {
    if (route !== 'POST /v1/databases' || path[0] !== 'initial_data_source') return undefined;
    return ['properties', ...path.slice(path[1] === 'properties' ? 2 : 1)];
  },
  downgradeDocument(document) {
    const partialUser = { type: 'object', required: ['object', 'id'], properties: { object: { type: 'string', enum: ['user'] }, id: { type: 'string' } } };
    forEachObjectSchema(document, (schema, object) => {
      if (object === 'database') {
        removeProperty(schema, 'data_sources');
        // The authors are shown on the database a response is about (oldDatabase), so optional here.
        addProperty(schema, 'created_by', partialUser, { required: false, before: 'created_time' });
        addProperty(schema, 'last_edited_by', partialUser, { required: false, before: 'created_time' });
        addProperty(
          schema,
          'properties',
          { type: 'object', additionalProperties: { type: 'object' }, description: 'Its data source’s properties.' },
          { required: false },
        );
      }
      if (object === 'page' || object === 'block') dropParentTypes(schema, ['data_source_id']);
    });
    renameListType(successSchema(document, 'POST /v1/databases/:database_id/query'), 'page_or_data_source', 'page_or_database');
    const create = requestSchema(document, 'POST /v1/databases');
    const initial = create?.properties?.initial_data_source?.properties?.properties;
    if (create && initial) renameProperty(create, 'initial_data_source', 'properties', initial);
  },
  downgradeResponse({ route, body, facts }) {
    const schema = facts?.databaseSchema;
    // The database query's list was typed page_or_database (FACTS.md §3).
    if (route === 'POST /v1/databases/:database_id/query' && isObject(body) && body.type === 'page_or_data_source') {
      body = Object.fromEntries(
        Object.entries(body).map(([key, value]) =>
          key === 'type' ? [key, 'page_or_database'] : key === 'page_or_data_source' ? ['page_or_database', value] : [key, value],
        ),
      );
    }
    return mapObjects(body, (obj) => {
      if (obj.object === 'database') return oldDatabase(obj, schema && obj.id === (body as Obj).id ? schema : undefined);
      if (obj.object === 'data_source') return 'properties' in obj ? { ...obj, properties: withoutSourceIds(obj.properties) } : obj;
      if ((obj.object === 'page' || obj.object === 'block') && isObject(obj.parent) && obj.parent.type === 'data_source_id') {
        return { ...obj, parent: { type: 'database_id', database_id: obj.parent.database_id } };
      }
      return obj;
    });
  },
};

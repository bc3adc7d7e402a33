import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import { dropParentTypes, forEachObjectSchema } from '../openapiDocument.js';

const SCHEMA_ROUTES: ReadonlySet<string> = new Set(['POST /v1/databases', 'PATCH /v1/databases/:database_id']);

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** `{database_id, type, single_property | dual_property}` → `{database_id, synced_property_name, synced_property_id}`. */
function oldRelation(relation: Obj): Obj {
  const { type: _type, single_property: _single, dual_property: dual, ...rest } = relation;
  const synced = isObject(dual) ? dual : {};
  return { ...rest, synced_property_name: synced.synced_property_name ?? null, synced_property_id: synced.synced_property_id ?? null };
}

function mapRelations(properties: unknown, fn: (relation: Obj) => Obj): unknown {
  if (!isObject(properties)) return properties;
  const out: Obj = {};
  for (const [name, property] of Object.entries(properties)) {
    out[name] = isObject(property) && isObject(property.relation) ? { ...property, relation: fn(property.relation) } : property;
  }
  return out;
}

/**
 * Before 2022-06-28 every relation was two-way: a relation request without a type is the dual
 * kind, with its synced name if one was given.
 */
function newRelation(relation: Obj): Obj {
  if ('type' in relation || 'single_property' in relation || 'dual_property' in relation) return relation;
  const { synced_property_name: name, synced_property_id: _id, ...rest } = relation;
  return { ...rest, type: 'dual_property', dual_property: typeof name === 'string' ? { synced_property_name: name } : {} };
}

/**
 * FACTS.md §1, 2022-06-28: `parent` is always the direct parent (an object inside a block said
 * the page it is in before), and relation properties have a type, `single_property` or
 * `dual_property` (before: `synced_property_name` and `synced_property_id`). The block `parent`
 * field is its own module (2022-06-28-block-parent).
 */
export const directParents: VersionChange = {
  version: '2022-06-28',
  description:
    '`parent` is the direct parent (pages inside blocks named their page before); relation properties are `single_property` or `dual_property` (were `synced_property_name`/`synced_property_id`).',
  upgradeRequest(request) {
    if (!SCHEMA_ROUTES.has(request.route) || !isObject(request.body) || !isObject(request.body.properties)) return;
    request.body = { ...request.body, properties: mapRelations(request.body.properties, newRelation) };
  },
  // A page or database inside a block named the page it is in.
  downgradeDocument(document) {
    forEachObjectSchema(document, (schema, object) => {
      if (object === 'page' || object === 'database') dropParentTypes(schema, ['block_id']);
    });
  },
  downgradeResponse({ body, facts }) {
    const out = mapObjects(body, (obj) => {
      if ((obj.object === 'database' || obj.object === 'data_source') && isObject(obj.properties)) {
        return { ...obj, properties: mapRelations(obj.properties, oldRelation) };
      }
      return obj;
    });
    // The enclosing page is a fact about the response's own object.
    const pageId = facts?.enclosingPageId;
    if (typeof pageId !== 'string' || !isObject(out) || (out.object !== 'page' && out.object !== 'database')) return out;
    if (!isObject(out.parent) || out.parent.type !== 'block_id') return out;
    return { ...out, parent: { type: 'page_id', page_id: pageId } };
  },
};

import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';

const PAGE_ROUTES: ReadonlySet<string> = new Set(['POST /v1/pages', 'PATCH /v1/pages/:page_id']);
const SCHEMA_ROUTES: ReadonlySet<string> = new Set(['POST /v1/databases', 'PATCH /v1/databases/:database_id']);

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** Renames the type `from` to `to` in one `{type, <type>: …}` object (a value, a config, a property item). */
function renameType(obj: Obj, from: string, to: string): Obj {
  if (obj.type !== from && !(obj.type === undefined && from in obj)) return obj;
  const out: Obj = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'type') out.type = to;
    else if (key === from) out[to] = value;
    else out[key] = value;
  }
  return out;
}

function renameAll(properties: unknown, from: string, to: string): unknown {
  if (!isObject(properties)) return properties;
  const out: Obj = {};
  for (const [name, value] of Object.entries(properties)) out[name] = isObject(value) ? renameType(value, from, to) : value;
  return out;
}

/**
 * FACTS.md §1, 2021-05-13 (spec, Versioning rule 3): the text property type was renamed
 * `rich_text`, in page values, schemas and property items, on read and write. On 2021-05-11
 * bodies keep the old name.
 */
export const richTextProperty: VersionChange = {
  version: '2021-05-13',
  description: 'The `text` property type is renamed `rich_text` (page property values, database schemas and property items).',
  upgradeRequest(request) {
    if (!isObject(request.body) || !isObject(request.body.properties)) return;
    if (!PAGE_ROUTES.has(request.route) && !SCHEMA_ROUTES.has(request.route)) return;
    request.body = { ...request.body, properties: renameAll(request.body.properties, 'text', 'rich_text') };
  },
  downgradeResponse({ body }) {
    const renamed = mapObjects(body, (obj) => {
      if ((obj.object === 'page' || obj.object === 'database' || obj.object === 'data_source') && isObject(obj.properties)) {
        return { ...obj, properties: renameAll(obj.properties, 'rich_text', 'text') };
      }
      if (obj.object === 'property_item') return renameType(obj, 'rich_text', 'text');
      if (obj.object === 'list' && isObject(obj.property_item)) return { ...obj, property_item: renameType(obj.property_item, 'rich_text', 'text') };
      return obj;
    });
    return renamed;
  },
};

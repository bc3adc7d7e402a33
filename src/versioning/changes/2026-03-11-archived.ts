import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import { addProperty, forEachObjectSchema, requestSchema } from '../openapiDocument.js';

/** Routes whose body took `archived` as an alias of `in_trash`. */
const ROUTES: ReadonlySet<string> = new Set([
  'PATCH /v1/pages/:page_id',
  'PATCH /v1/blocks/:block_id',
  'PATCH /v1/databases/:database_id',
  'PATCH /v1/data_sources/:data_source_id',
  'POST /v1/data_sources/:data_source_id/query',
  'POST /v1/databases/:database_id/query',
]);

const TRASHABLE: ReadonlySet<unknown> = new Set(['page', 'block', 'database', 'data_source', 'file_upload']);

/**
 * FACTS.md §1, 2026-03-11 item 2 (spec, Versioning rule 6): `archived`, an alias of `in_trash`,
 * is removed from requests and responses. Older callers may send it (two different values leave
 * both, so the HEAD schema refuses `archived`) and get it next to `in_trash` on every page,
 * block, database, data source and file upload.
 */
export const archivedRemoved: VersionChange = {
  version: '2026-03-11',
  description: '`archived` is removed from requests and responses of pages, blocks, databases, data sources and file uploads; `in_trash` remains.',
  upgradeRequest(request) {
    if (!ROUTES.has(request.route) || !request.body || typeof request.body !== 'object') return;
    const body = request.body as Record<string, unknown>;
    if (typeof body.archived !== 'boolean') return;
    if (body.in_trash === undefined) body.in_trash = body.archived;
    if (body.in_trash === body.archived) delete body.archived;
  },
  downgradeDocument(document) {
    for (const route of ROUTES) {
      const body = requestSchema(document, route);
      if (body?.properties?.in_trash)
        addProperty(body, 'archived', { type: 'boolean', description: 'An alias of `in_trash`.' }, { required: false, before: 'in_trash' });
    }
    forEachObjectSchema(document, (schema, object) => {
      if (!TRASHABLE.has(object) || !schema.properties?.in_trash) return;
      addProperty(schema, 'archived', { type: 'boolean' }, { required: (schema.required ?? []).includes('in_trash'), before: 'in_trash' });
    });
  },
  downgradeResponse({ body }) {
    return mapObjects(body, (obj) => {
      if (!TRASHABLE.has(obj.object) || typeof obj.in_trash !== 'boolean' || 'archived' in obj) return obj;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(obj)) {
        if (key === 'in_trash') out.archived = value;
        out[key] = value;
      }
      return out;
    });
  },
};

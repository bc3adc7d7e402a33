import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import { forEachObjectSchema, removeProperty } from '../openapiDocument.js';

/** FACTS.md §1, 2022-06-28: blocks gained a `parent` field; older callers get blocks without it. */
export const blockParent: VersionChange = {
  version: '2022-06-28',
  description: 'Blocks gain a `parent` field.',
  downgradeDocument(document) {
    forEachObjectSchema(document, (schema, object) => {
      if (object === 'block') removeProperty(schema, 'parent');
    });
  },
  downgradeResponse({ body }) {
    return mapObjects(body, (obj) => {
      if (obj.object !== 'block' || !('parent' in obj)) return obj;
      const { parent: _parent, ...rest } = obj;
      return rest;
    });
  },
};

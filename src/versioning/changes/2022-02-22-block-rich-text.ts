import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import { forEachSchema, renameProperty } from '../openapiDocument.js';
import { RICH_TEXT_BLOCK_TYPES } from '../../domain/blocks/blockTypes.js';
import { forEachRequestBlock, renameKey, renameKeyInPlace } from '../../domain/blocks/requestBlocks.js';

/** Routes whose bodies carry blocks: appends, block updates and page creation with children. */
const BLOCK_ROUTES = /^(PATCH \/v1\/blocks\/|POST \/v1\/pages$)/;

/**
 * FACTS.md §1, 2022-02-22: inside blocks, `text` is renamed `rich_text`. Older callers write and
 * read `text` in every block type that holds rich text. When a request gives both, nothing is
 * renamed, so the HEAD schema refuses `text`.
 */
export const blockRichText: VersionChange = {
  version: '2022-02-22',
  description: 'Inside blocks, `text` is renamed `rich_text`.',
  upgradeRequest(request) {
    forEachRequestBlock(request.route, request.body, (block) => {
      for (const type of RICH_TEXT_BLOCK_TYPES) {
        const member = block[type];
        if (member && typeof member === 'object' && !Array.isArray(member)) renameKeyInPlace(member as Record<string, unknown>, 'text', 'rich_text');
      }
    });
  },
  callerPath(path, route) {
    if (!BLOCK_ROUTES.test(route)) return undefined;
    // `rich_text` is renamed only as the member of a block type holding rich text (`paragraph.rich_text`).
    return path.map((seg, i) => {
      const owner = path[i - 1];
      return seg === 'rich_text' && typeof owner === 'string' && RICH_TEXT_BLOCK_TYPES.has(owner) ? 'text' : seg;
    });
  },
  // Block request schemas (shared components): `paragraph.rich_text` is `paragraph.text`.
  downgradeDocument(document) {
    forEachSchema(document, (schema) => {
      for (const [key, member] of Object.entries(schema.properties ?? {})) {
        if (RICH_TEXT_BLOCK_TYPES.has(key) && member.properties?.rich_text) renameProperty(member, 'rich_text', 'text');
      }
    });
  },
  downgradeResponse({ body }) {
    return mapObjects(body, (obj) => {
      if (obj.object !== 'block' || typeof obj.type !== 'string' || !RICH_TEXT_BLOCK_TYPES.has(obj.type)) return obj;
      const member = obj[obj.type];
      if (!member || typeof member !== 'object') return obj;
      return { ...obj, [obj.type]: renameKey(member as Record<string, unknown>, 'rich_text', 'text') };
    });
  },
};

import type { VersionChange } from '../change.js';
import { mapObjects } from '../mapObjects.js';
import { forEachSchema, renameProperty } from '../openapiDocument.js';
import { forEachRequestBlock, renameKey, renameKeyInPlace } from '../../domain/blocks/requestBlocks.js';

/** FACTS.md §1, 2026-03-11 item 3: block type `transcription` is renamed `meeting_notes`. */
export const meetingNotesRename: VersionChange = {
  version: '2026-03-11',
  description: 'Block type `transcription` is renamed `meeting_notes`.',
  upgradeRequest(request) {
    forEachRequestBlock(request.route, request.body, (block) => {
      renameKeyInPlace(block, 'transcription', 'meeting_notes');
      if (block.type === 'transcription') block.type = 'meeting_notes';
    });
  },
  callerPath(path, route) {
    if (!route.startsWith('PATCH /v1/blocks/') && route !== 'POST /v1/pages') return undefined;
    return path.map((seg) => (seg === 'meeting_notes' ? 'transcription' : seg));
  },
  // Block request schemas name the member; block answers leave type members open.
  downgradeDocument(document) {
    forEachSchema(document, (schema) => {
      if (schema.properties?.meeting_notes) renameProperty(schema, 'meeting_notes', 'transcription');
    });
  },
  downgradeResponse({ body }) {
    return mapObjects(body, (obj) => {
      if (obj.object !== 'block' || obj.type !== 'meeting_notes') return obj;
      return { ...renameKey(obj, 'meeting_notes', 'transcription'), type: 'transcription' };
    });
  },
};

import type { VersionChange } from '../change.js';
import { addProperty, requestSchema } from '../openapiDocument.js';

const APPEND = 'PATCH /v1/blocks/:block_id/children';

/**
 * FACTS.md §1, 2026-03-11 item 1: append-block-children drops `after` for
 * `position: {type: "after_block", after_block: {id}}`. Given together with `position`, `after`
 * stays, and the HEAD schema refuses it.
 */
export const appendPosition: VersionChange = {
  version: '2026-03-11',
  description: 'Append block children takes `position` (`after_block`, `start` or `end`) instead of `after`.',
  upgradeRequest(request) {
    if (request.route !== APPEND || !request.body || typeof request.body !== 'object') return;
    const body = request.body as Record<string, unknown>;
    if (body.after === undefined || body.position !== undefined) return;
    body.position = { type: 'after_block', after_block: { id: body.after } };
    delete body.after;
  },
  downgradeDocument(document) {
    const body = requestSchema(document, APPEND);
    const id = body?.properties?.position?.anyOf?.[0]?.properties?.after_block?.properties?.id;
    if (body && id) addProperty(body, 'after', { ...id, description: 'The block after which the children go.' }, { required: false, before: 'position' });
  },
  callerPath(path, route) {
    // Everything under `position` came from the one `after` id.
    if (route !== APPEND || path[0] !== 'position') return undefined;
    return ['after'];
  },
};

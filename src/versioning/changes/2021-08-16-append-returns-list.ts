import type { VersionChange } from '../change.js';
import { setSuccessSchema, successSchema } from '../openapiDocument.js';

const APPEND = 'PATCH /v1/blocks/:block_id/children';

/**
 * FACTS.md §1, 2021-08-16: append-block-children returns the list of new children instead of
 * the parent block. The route gives the parent block at HEAD beside the answer (facts.appendedTo);
 * it is walked back through every newer module first.
 */
export const appendReturnsList: VersionChange = {
  version: '2021-08-16',
  description: 'Append block children returns the list of new children instead of the parent block.',
  // The block appended to, as GET /v1/blocks/{id} shows it at this version.
  downgradeDocument(document) {
    const block = successSchema(document, 'GET /v1/blocks/:block_id');
    if (block) setSuccessSchema(document, APPEND, structuredClone(block));
  },
  downgradeResponse({ route, body, facts, downgradeNewer }) {
    if (route !== APPEND || facts?.appendedTo === undefined || !downgradeNewer) return body;
    return downgradeNewer(facts.appendedTo);
  },
};
